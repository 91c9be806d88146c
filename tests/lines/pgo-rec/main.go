// Recursion for Go's PGO edge rule (tests/lines/pgo.sh): down is called by itself at two
// lines, ten deep, and by main.run; Go weighs only each sample's last two frames, so the
// calls of down by down high in the stack count nothing, and an edge seen twice there
// counts a sample once. flame-top --pgo must give the edges and weights go tool
// preprofile gives.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"time"
)

//go:noinline
func leaf(x uint64) uint64 {
	for i := 0; i < 64; i++ {
		x ^= x >> 29
		x *= 0xbf58476d1ce4e5b9
	}
	return x
}

//go:noinline
func down(n int, x uint64) uint64 {
	if n == 0 {
		return leaf(x)
	}
	if n%2 == 0 {
		return down(n-1, x+1) ^ 1
	}
	return down(n-1, x*3) + 1
}

func run(d time.Duration) uint64 {
	var s uint64
	end := time.Now().Add(d)
	for i := 0; ; i++ {
		s += down(10, uint64(i))
		if i%1024 == 0 && time.Now().After(end) {
			return s
		}
	}
}

func main() {
	out := flag.String("cpuprofile", "", "write a CPU profile here")
	d := flag.Duration("d", time.Second, "how long to work")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		panic(err)
	}
	pprof.StartCPUProfile(f)
	fmt.Println(run(*d) != 0)
	pprof.StopCPUProfile()
}
