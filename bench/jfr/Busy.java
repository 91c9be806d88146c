// The workload bench/jfr-binary.sh records: threads that allocate large arrays (each one an
// ObjectAllocationOutsideTLAB event with its stack) and compute, at the bottom of random
// call paths through three methods (many distinct stacks, 10 to 40 frames deep), for MS
// milliseconds: java Busy MS THREADS.
public class Busy {
    static volatile long sink;

    static void a(long r, int d) { if (d == 0) leaf(r); else if ((r & 1) == 0) a(r >>> 1, d - 1); else b(r >>> 1, d - 1); }
    static void b(long r, int d) { if (d == 0) leaf(r); else if ((r & 1) == 0) c(r >>> 1, d - 1); else a(r >>> 1, d - 1); }
    static void c(long r, int d) { if (d == 0) leaf(r); else if ((r & 1) == 0) b(r >>> 1, d - 1); else c(r >>> 1, d - 1); }

    static void leaf(long r) {
        byte[] big = new byte[64 * 1024 + (int) (r & 1023)];
        sink += big.length;
        for (int i = 0; i < 200; i++) sink += i * r;
    }

    public static void main(String[] args) throws Exception {
        long until = System.currentTimeMillis() + Long.parseLong(args[0]);
        Thread[] ts = new Thread[Integer.parseInt(args[1])];
        for (int t = 0; t < ts.length; t++) {
            final long seed = t * 0x9E3779B97F4A7C15L + 1;
            ts[t] = new Thread(() -> {
                long x = seed;
                while (System.currentTimeMillis() < until) {
                    x ^= x << 13; x ^= x >>> 7; x ^= x << 17;
                    a(x, 4 + (int) ((x >>> 40) & 7));
                }
            }, "busy-" + t);
            ts[t].start();
        }
        for (Thread t : ts) t.join();
    }
}
