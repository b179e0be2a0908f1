package dev.moviegraph.dynamo.client;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * A client on a Netty event loop of its own that closing the client ends at once. The SDK's own loop
 * waits out Netty's 2 s quiet period when it closes, which every stop of the gateway, and every migrate
 * and import, paid; by the time a client is closed no call is left to be quiet for.
 */
final class OwnedEventLoop {
    private OwnedEventLoop() {
    }

    /** The client {@code build} makes on a new loop (Netty's default thread count), closing the loop with it. */
    static <T extends SdkAutoCloseable> T client(Class<T> type, String threads, Function<SdkEventLoopGroup, T> build) {
        EventLoopGroup loop = new NioEventLoopGroup(0, new DefaultThreadFactory(threads, true));
        T client;
        try {
            client = build.apply(SdkEventLoopGroup.create(loop));
        } catch (RuntimeException e) {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            try {
                return method.invoke(client, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            } finally {
                if (method.getName().equals("close") && method.getParameterCount() == 0) {
                    loop.shutdownGracefully(50, 5_000, TimeUnit.MILLISECONDS).syncUninterruptibly();
                }
            }
        }));
    }
}
