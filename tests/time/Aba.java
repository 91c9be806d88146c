// The JFR side of tests/time/aba-jfr.sh: spinA for 2 s, spinB for 1 s, spinA for 1 s, on
// one thread, as aba.c does under perf. The work is recursive calls, not one tight loop:
// JFR's sampler walks a compiled loop's stack seldom (17 samples in 4 s here).
public class Aba {
    static volatile long sink;
    static long fibA(int n) { return n < 2 ? n : fibA(n - 1) + fibA(n - 2); }
    static long fibB(int n) { return n < 2 ? n : fibB(n - 1) + fibB(n - 2); }
    static void spinA(long ms) { for (long t = System.nanoTime() + ms * 1_000_000L; System.nanoTime() < t;) sink += fibA(18); }
    static void spinB(long ms) { for (long t = System.nanoTime() + ms * 1_000_000L; System.nanoTime() < t;) sink += fibB(18); }
    public static void main(String[] a) {
        spinA(2000);
        spinB(1000);
        spinA(1000);
    }
}
