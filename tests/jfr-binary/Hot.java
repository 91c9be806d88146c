// The workload tests/jfr-binary/record.sh records: CPU-bound threads (fib), allocating
// threads, threads contending for a monitor and parking, or deep recursion ("deep"), for
// MS milliseconds: java Hot MS [all|deep]. Midway the recording moves to a new chunk.
import java.util.*;
import java.util.concurrent.locks.*;
public class Hot {
    static volatile long sink;
    static final Object lock = new Object();
    static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    static long deep(int n) { if (n == 0) { long s = 0; for (int i = 0; i < 200000; i++) s += i * 31L; return s; } return deep(n - 1) + 1; }
    static void cpu(long until) { while (System.currentTimeMillis() < until) sink += fib(22); }
    static void alloc(long until) { List<Object> l = new ArrayList<>(); while (System.currentTimeMillis() < until) { l.add(new byte[1000 + (int)(sink & 4095)]); l.add(new int[64]); if (l.size() > 10000) l.clear(); } }
    static void contend(long until) { while (System.currentTimeMillis() < until) { synchronized (lock) { sink += fib(18); } } }
    static void park(long until) { while (System.currentTimeMillis() < until) LockSupport.parkNanos(2_000_000); }
    static void recurse(long until) { while (System.currentTimeMillis() < until) sink += deep(150); }
    public static void main(String[] a) throws Exception {
        long ms = Long.parseLong(a[0]);
        String mode = a.length > 1 ? a[1] : "all";
        long until = System.currentTimeMillis() + ms;
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            if (mode.equals("all") || mode.equals("cpu")) ts.add(new Thread(() -> cpu(until), "cpu-" + i));
            if (mode.equals("all") || mode.equals("alloc")) ts.add(new Thread(() -> alloc(until), "alloc-" + i));
            if (mode.equals("all") || mode.equals("lock")) ts.add(new Thread(() -> contend(until), "lock-" + i));
            if (mode.equals("all") || mode.equals("park")) ts.add(new Thread(() -> park(until), "park-" + i));
            if (mode.equals("deep")) ts.add(new Thread(() -> recurse(until), "deep-" + i));
        }
        for (Thread t : ts) t.start();
        // a recording started and stopped midway makes the running one start a new chunk
        Thread.sleep(ms / 2);
        jdk.jfr.Recording r = new jdk.jfr.Recording();
        r.start();
        r.stop();
        r.close();
        for (Thread t : ts) t.join();
    }
}
