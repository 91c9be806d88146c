// The JFR side of tests/time/aba-jfr.sh: spinA for 2 s, spinB for 1 s, spinA for 1 s, on
// one thread, as aba.c does under perf. The work is recursive calls, not one tight loop:
// JFR's sampler walks a compiled loop's stack seldom (17 samples in 4 s here). Both are
// compiled first, and the recording starts right before spinA, so its first sample is
// spinA's and times from it are times from the phase change (a JVM's start, recorded from
// the command line, took 0.1-0.3 s of samples of its own on a loaded machine).
// Usage: java Aba OUT.jfr
import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.Recording;

public class Aba {
    static volatile long sink;
    static long fibA(int n) { return n < 2 ? n : fibA(n - 1) + fibA(n - 2); }
    static long fibB(int n) { return n < 2 ? n : fibB(n - 1) + fibB(n - 2); }
    static void spinA(long ms) { for (long t = System.nanoTime() + ms * 1_000_000L; System.nanoTime() < t;) sink += fibA(18); }
    static void spinB(long ms) { for (long t = System.nanoTime() + ms * 1_000_000L; System.nanoTime() < t;) sink += fibB(18); }
    public static void main(String[] a) throws Exception {
        spinA(300);
        spinB(300);
        try (Recording r = new Recording()) {
            r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            r.start();
            spinA(2000);
            spinB(1000);
            spinA(1000);
            r.stop();
            r.dump(Path.of(a[0]));
        }
    }
}
