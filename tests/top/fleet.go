// fleet: a Go CPU profile of a small "fleet" for the flame-top and flame-diff --before-tag
// tests. Goroutines serve requests under pprof.Do labels (service, endpoint, version; one
// endpoint has a hostile value) and count them; main.hashOrder does four times the work
// per request in version v2, everything else the same. Writes the profile and a line
// "VERSION REQUESTS" per version (requests of service api). Each shard serves for SECONDS and
// at least minRequests requests, so that a loaded machine (fewer CPU samples in the same
// wall time) still gives the tests' statistics enough samples to see the regression.
// Usage: go run fleet.go OUT.pb.gz COUNTS SECONDS
package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

var sink uint64

const minRequests = 8000

// Each function spins in a loop of its own, so its time is its self time.

//go:noinline
func parseJSON() {
	x := sink + 1
	for i := 0; i < 20000; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink = x
}

//go:noinline
func hashOrder(version string) {
	n := 15000
	if version == "v2" {
		n *= 4 // the regression: v2 hashes each order four times
	}
	x := sink + 3
	for i := 0; i < n; i++ {
		x = x*2862933555777941757 + 3037000493
	}
	sink = x
}

//go:noinline
func walk(depth int) { // recursion: counted once per stack in totals
	if depth > 0 {
		walk(depth - 1)
		return
	}
	x := sink + 5
	for i := 0; i < 10000; i++ {
		x = x*3935559000370003845 + 2691343689449507681
	}
	sink = x
}

//go:noinline
func billingTotal() {
	x := sink + 7
	for i := 0; i < 30000; i++ {
		x = x*6364136223846793005 + 1
	}
	sink = x
}

//go:noinline
func handle(service, version string) {
	parseJSON()
	if service == "billing" {
		billingTotal()
		return
	}
	hashOrder(version)
	walk(3)
}

func main() {
	out, counts := os.Args[1], os.Args[2]
	secs, _ := strconv.ParseFloat(os.Args[3], 64)
	runtime.SetCPUProfileRate(400)
	f, err := os.Create(out)
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	type shard struct{ service, endpoint, version string }
	shards := []shard{
		{"api", "/orders", "v1"}, {"api", "/orders", "v2"},
		{"api", "/users", "v1"}, {"api", "/users", "v2"},
		{"billing", "/invoice", "v1"},
		{"api", "/x;y\n\"<b>\x01\xff,=", "v1"}, // a hostile value
	}
	reqs := map[string]*int64{"v1": new(int64), "v2": new(int64)}
	deadline := time.Now().Add(time.Duration(secs * float64(time.Second)))
	var wg sync.WaitGroup
	for _, s := range shards {
		wg.Add(1)
		go func(s shard) {
			defer wg.Done()
			labels := pprof.Labels("service", s.service, "endpoint", s.endpoint, "version", s.version)
			pprof.Do(context.Background(), labels, func(context.Context) {
				for n := 0; n < minRequests || time.Now().Before(deadline); n++ {
					handle(s.service, s.version)
					runtime.Gosched() // yield between requests: no async preemption inside them
					if s.service == "api" {
						atomic.AddInt64(reqs[s.version], 1)
					}
				}
			})
		}(s)
	}
	wg.Wait()
	pprof.StopCPUProfile()
	f.Close()
	c, err := os.Create(counts)
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(c, "v1 %d\nv2 %d\n", *reqs["v1"], *reqs["v2"])
	c.Close()
}
