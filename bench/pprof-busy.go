// pprof-busy: a CPU profile as big as one process can make, for bench/pprof.
// Several goroutines recurse deeply through a handful of functions chosen by a
// per-goroutine pseudo-random walk, under pprof labels, while the CPU profiler samples
// at HZ (default 4000; Go's own default is 100): nearly every sample is a distinct stack
// of up to the 64-frame limit.
// Usage: go run pprof-busy.go OUT.pb.gz [SECONDS] [GOROUTINES] [HZ]
package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"time"
)

var sink uint64

type walker struct{ state uint64 }

func (w *walker) next() uint64 {
	w.state ^= w.state << 13
	w.state ^= w.state >> 7
	w.state ^= w.state << 17
	return w.state
}

//go:noinline
func spin(n int) uint64 {
	var x uint64 = 1
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

//go:noinline
func alpha(w *walker, d int) uint64 { return step(w, d) + spin(50) }

//go:noinline
func beta(w *walker, d int) uint64 { return step(w, d) + spin(80) }

//go:noinline
func gamma(w *walker, d int) uint64 { return step(w, d) + spin(30) }

//go:noinline
func delta(w *walker, d int) uint64 { return step(w, d) + spin(120) }

//go:noinline
func epsilon(w *walker, d int) uint64 { return step(w, d) + spin(10) }

//go:noinline
func zeta(w *walker, d int) uint64 { return step(w, d) + spin(200) }

//go:noinline
func eta(w *walker, d int) uint64 { return step(w, d) + spin(60) }

//go:noinline
func theta(w *walker, d int) uint64 { return step(w, d) + spin(90) }

var fns []func(*walker, int) uint64 // set in main (a package-level literal would be an init loop)

// step recurses to a random depth (up to 70) through randomly chosen functions.
func step(w *walker, d int) uint64 {
	if d == 0 {
		return spin(2000)
	}
	return fns[w.next()%uint64(len(fns))](w, d-1)
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: pprof-busy OUT.pb.gz [SECONDS] [GOROUTINES]")
		os.Exit(2)
	}
	fns = []func(*walker, int) uint64{alpha, beta, gamma, delta, epsilon, zeta, eta, theta}
	secs, workers, hz := 60, 8, 4000
	if len(os.Args) > 2 {
		secs, _ = strconv.Atoi(os.Args[2])
	}
	if len(os.Args) > 3 {
		workers, _ = strconv.Atoi(os.Args[3])
	}
	if len(os.Args) > 4 {
		hz, _ = strconv.Atoi(os.Args[4])
	}
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	runtime.SetCPUProfileRate(hz) // StartCPUProfile then warns and keeps this rate
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	var wg sync.WaitGroup
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			w := &walker{state: uint64(g)*0x9e3779b97f4a7c15 + 1}
			labels := pprof.Labels("worker", strconv.Itoa(g), "shard", strconv.Itoa(g%3))
			pprof.Do(context.Background(), labels, func(context.Context) {
				for time.Now().Before(deadline) {
					sink += step(w, 10+int(w.next()%60))
				}
			})
		}(g)
	}
	wg.Wait()
	pprof.StopCPUProfile()
	f.Close()
}
