// A hot call in a loop that the compiler does not inline without a profile: mix costs
// more than the inliner's budget of 80, and PGO raises the budget of hot call sites.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"time"
)

//go:noinline
func seed(i int) uint64 { return uint64(i) * 0x9e3779b97f4a7c15 }

// never called (seed's values are not 0), but a call makes mix keep a frame: Go leaves a
// leaf function without one, and perf record -g, which follows frame pointers, would then
// lose its caller
//
//go:noinline
func rare(x uint64) uint64 { return x + 1 }

func mix(x uint64) uint64 {
	if x == 0 {
		x = rare(x)
	}
	for r := 0; r < 4; r++ {
		x ^= x >> 31
		x *= 0xbf58476d1ce4e5b9
		x ^= x >> 27
		x *= 0x94d049bb133111eb
		x ^= x >> 31
		x *= 0xbf58476d1ce4e5b9
		x ^= x >> 27
		x *= 0x94d049bb133111eb
		x ^= x >> 31
		x *= 0xbf58476d1ce4e5b9
		x ^= x >> 27
		x *= 0x94d049bb133111eb
		x ^= x >> 33
		if x&1 == 0 {
			x += 0x632be59bd9b4e019
		} else {
			x -= 0x8cb92ba72f3d8dd7
		}
		x = x<<7 | x>>57
		x ^= x >> 13
		x *= 0xff51afd7ed558ccd
	}
	return x
}

func work(d time.Duration) uint64 {
	var s uint64
	end := time.Now().Add(d)
	for i := 0; ; i++ {
		s += mix(seed(i))
		if i%4096 == 0 && time.Now().After(end) {
			return s
		}
	}
}

func main() {
	out := flag.String("cpuprofile", "", "write a CPU profile here")
	d := flag.Duration("d", time.Second, "how long to work")
	flag.Parse()
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			panic(err)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	fmt.Println(work(*d) != 0)
}
