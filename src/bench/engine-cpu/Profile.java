import java.nio.file.Path;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a server's CPU went, from a JFR recording of it: {@code java Profile.java FILE.jfr [NAME=FROM-TO ...]}
 * with windows in local time as the benchmark prints them on stderr ({@code window put 21:33:01.123
 * 21:33:21.125}); without windows, the whole recording. Per window: the execution samples' top frames
 * (self), the methods most often on the stack (inclusive), the first frame of the engine's own code
 * (dev.moviegraph.engine) in each sample, and the garbage collector's pauses (which execution samples
 * do not see: they sample Java threads only).
 */
public class Profile {
    record Window(String name, LocalTime from, LocalTime to) {
        boolean holds(LocalTime t) {
            return !t.isBefore(from) && t.isBefore(to);
        }
    }

    static final class Tally {
        long samples;
        long gcs;
        double gcPauseMs;
        final Map<String, Double> gcByName = new HashMap<>();
        final Map<String, Long> self = new HashMap<>();
        final Map<String, Long> inclusive = new HashMap<>();
        final Map<String, Long> engine = new HashMap<>();
    }

    public static void main(String[] args) throws Exception {
        List<Window> windows = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String[] nameRange = args[i].split("=", 2);
            String[] range = nameRange[1].split("-", 2);
            windows.add(new Window(nameRange[0], LocalTime.parse(range[0]), LocalTime.parse(range[1])));
        }
        if (windows.isEmpty()) {
            windows.add(new Window("all", LocalTime.MIN, LocalTime.MAX));
        }
        Map<Window, Tally> tallies = new HashMap<>();
        windows.forEach(w -> tallies.put(w, new Tally()));
        ZoneId zone = ZoneId.systemDefault();
        try (RecordingFile file = new RecordingFile(Path.of(args[0]))) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                String type = event.getEventType().getName();
                boolean sample = type.equals("jdk.ExecutionSample");
                boolean gc = type.equals("jdk.GarbageCollection");
                if (!sample && !gc) {
                    continue;
                }
                LocalTime at = LocalTime.ofInstant(event.getStartTime(), zone);
                for (Window window : windows) {
                    if (!window.holds(at)) {
                        continue;
                    }
                    Tally tally = tallies.get(window);
                    if (gc) {
                        tally.gcs++;
                        double pause = event.getDuration("sumOfPauses").toNanos() / 1e6;
                        tally.gcPauseMs += pause;
                        tally.gcByName.merge(event.getString("name"), pause, Double::sum);
                        continue;
                    }
                    if (event.getStackTrace() == null) {
                        continue;
                    }
                    List<RecordedFrame> frames = event.getStackTrace().getFrames();
                    if (frames.isEmpty()) {
                        continue;
                    }
                    tally.samples++;
                    tally.self.merge(name(frames.get(0)), 1L, Long::sum);
                    Set<String> seen = new HashSet<>();
                    String engineFrame = null;
                    for (RecordedFrame frame : frames) {
                        String name = name(frame);
                        if (seen.add(name)) {
                            tally.inclusive.merge(name, 1L, Long::sum);
                        }
                        if (engineFrame == null && name.startsWith("dev.moviegraph.engine.")) {
                            engineFrame = name;
                        }
                    }
                    tally.engine.merge(engineFrame == null ? "(no engine frame: Jetty, JDK, JIT'd stubs)" : engineFrame, 1L, Long::sum);
                }
            }
        }
        for (Window window : windows) {
            Tally tally = tallies.get(window);
            double seconds = window.from().equals(LocalTime.MIN) ? Double.NaN
                : (window.to().toNanoOfDay() - window.from().toNanoOfDay()) / 1e9;
            System.out.printf(Locale.ROOT, "== %s: %d execution samples; %d GCs, pauses %.0f ms (%.1f%% of the window)%n",
                window.name(), tally.samples, tally.gcs, tally.gcPauseMs, tally.gcPauseMs / 10 / seconds);
            tally.gcByName.forEach((name, ms) -> System.out.printf(Locale.ROOT, "   %s: %.0f ms%n", name, ms));
            print("top frames (self)", tally.self, tally.samples, 20);
            print("first engine frame", tally.engine, tally.samples, 15);
            print("on the stack (inclusive)", tally.inclusive, tally.samples, 40);
        }
    }

    static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    static void print(String title, Map<String, Long> counts, long total, int top) {
        System.out.println("-- " + title);
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
            .forEach(e -> System.out.printf(Locale.ROOT, "%6.1f%%  %s%n", 100.0 * e.getValue() / total, e.getKey()));
    }
}
