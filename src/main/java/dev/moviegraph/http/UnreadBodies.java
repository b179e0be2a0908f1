package dev.moviegraph.http;

import io.javalin.http.Context;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads and drops what is left of a refused request's body before the answer goes out. Refused before
 * its body was read (a wrong Content-Type, Accept, method or path), a request whose client is still
 * sending would otherwise get its answer followed by a closed connection; the data still arriving then
 * makes the server's TCP stack reset the connection, and the client's stack can drop the answer it had
 * already received. Bodies past the size limit are not read: those connections may close (RFC 9110, 413).
 */
final class UnreadBodies {
    private final int maxBodyBytes;

    UnreadBodies(int maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    void discard(Context ctx) {
        // Answers that succeeded read their whole body; only a refusal can leave one unread.
        if (ctx.status().getCode() < 400 || ctx.contentLength() > maxBodyBytes
                || (ctx.contentLength() <= 0 && ctx.header("Transfer-Encoding") == null)) {
            return;
        }
        byte[] buffer = new byte[8_192];
        long left = maxBodyBytes + 1L;
        try {
            InputStream in = ctx.req().getInputStream();
            for (int n; left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) >= 0; ) {
                left -= n;
            }
        } catch (IOException | IllegalStateException gone) {
            // The client went away, or the body was taken as a reader: nothing left to keep open.
        }
    }
}
