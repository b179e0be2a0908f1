package dev.moviegraph.config;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;

import java.util.Locale;
import java.util.Map;

/**
 * One log for the gateway and everything in its process, on stderr:
 * {@code LOG_FORMAT=text} (the default) one line an event, {@code LOG_FORMAT=json} one JSON object a line
 * (logback's JsonEncoder: time, level, thread, logger, message, exception, and the MDC, where a traced
 * request's errors carry {@code trace_id}). {@code LOG_LEVEL=debug} shows the gateway's debug lines.
 * Found by logback through META-INF/services; AppConfig refuses other values of both.
 */
public final class LogConfigurator extends ContextAwareBase implements Configurator {
    /** slf4j-simple's line as before, and {@code trace_id=} after the logger when the event has one. */
    static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSZ} [%thread] %level %logger{0}"
            + "%replace( trace_id=%X{trace_id}){' trace_id=$', ''} - %msg%n%ex";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        Map<String, String> env = System.getenv();
        boolean json = "json".equals(env.getOrDefault("LOG_FORMAT", "text").strip().toLowerCase(Locale.ROOT));
        Encoder<ILoggingEvent> encoder;
        if (json) {
            JsonEncoder jsonEncoder = new JsonEncoder();
            jsonEncoder.setWithSequenceNumber(false);
            jsonEncoder.setWithNanoseconds(false);
            jsonEncoder.setWithContext(false);
            jsonEncoder.setWithFormattedMessage(true);
            jsonEncoder.setWithMessage(false);
            jsonEncoder.setWithArguments(false);
            encoder = jsonEncoder;
        } else {
            PatternLayoutEncoder pattern = new PatternLayoutEncoder();
            pattern.setPattern(TEXT_PATTERN);
            encoder = pattern;
        }
        encoder.setContext(context);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("console");
        console.setTarget("System.err");
        console.setEncoder(encoder);
        console.start();
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console);
        context.getLogger("org.eclipse.jetty").setLevel(Level.WARN);
        context.getLogger("io.javalin").setLevel(Level.WARN);
        if ("debug".equalsIgnoreCase(env.getOrDefault("LOG_LEVEL", "info").strip())) {
            context.getLogger("dev.moviegraph").setLevel(Level.DEBUG);
        }
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
