package dev.moviegraph.http;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices at once that a client closed the connection of a long-lived response (a subscription's event
 * stream) while nothing is being written. Over HTTP/1.1 a server reads nothing once a request's body is
 * read, so a closed connection is only found at the next write (Jetty's failure listeners never hear of
 * it: jetty.project#824); this asks the connection's end point to tell when it can be read, and reads: the
 * end of the stream is the client gone. The response says {@code Connection: close}, so nothing the client
 * could send after its request belongs to a next request, and the connection is not reused after it.
 */
final class ClosedConnections {
    private static final Logger LOG = LoggerFactory.getLogger(ClosedConnections.class);

    private ClosedConnections() {
    }

    /**
     * Calls {@code gone} when the client closes the connection; must be called before the response's first
     * byte (it adds {@code Connection: close}). Returns false where the connection cannot be watched (the
     * stream's keep-alive comments then find a closed connection at their second write).
     */
    static boolean watch(HttpServletRequest request, HttpServletResponse response, Runnable gone) {
        EndPoint endPoint;
        try {
            endPoint = ServletContextRequest.getServletContextRequest(request).getConnectionMetaData().getConnection()
                    .getEndPoint();
        } catch (RuntimeException e) {
            return false;
        }
        response.setHeader("Connection", "close");
        return endPoint.tryFillInterested(new Reader(endPoint, gone));
    }

    /** Reads when the end point says it can: -1 is the client gone; anything it sent is dropped, and it waits again. */
    private record Reader(EndPoint endPoint, Runnable gone) implements Callback {
        @Override
        public void succeeded() {
            int read;
            try {
                read = endPoint.fill(BufferUtil.allocate(512));
            } catch (IOException e) {
                read = -1;
            }
            if (read < 0) {
                gone.run();
            } else if (!endPoint.tryFillInterested(this)) {
                LOG.debug("A streamed response's connection can no longer be watched");
            }
        }

        @Override
        public void failed(Throwable failure) {
            gone.run(); // the end point was closed: by the client, or by the server once the response ended
        }
    }
}
