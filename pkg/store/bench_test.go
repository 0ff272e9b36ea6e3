package store

import (
	"context"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
)

// peakHeap samples the live heap while f runs and reports the largest
// HeapInuse seen, in MB, and the CPU time f took (user + system, all
// threads: on a machine shared with other work the wall time overstates
// what the code costs). The resident set of the whole process (SQLite's
// page cache included) is what /usr/bin/time -f %M reports.
func peakHeap(b *testing.B, f func()) {
	runtime.GC()
	var peak uint64
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			mu.Lock()
			peak = max(peak, ms.HeapInuse)
			mu.Unlock()
		}
	}()
	var r0, r1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
	f()
	syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
	cpu := time.Duration(r1.Utime.Nano() + r1.Stime.Nano() - r0.Utime.Nano() - r0.Stime.Nano())
	b.ReportMetric(cpu.Seconds(), "cpu-s")
	close(done)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mu.Lock()
	peak = max(peak, ms.HeapInuse)
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	mu.Unlock()
}

// go test -run '^$' -bench Store -benchtime 1x -benchmem ./pkg/store
func BenchmarkStoreRecord1M(b *testing.B) {
	for range b.N {
		b.StopTimer()
		s, err := Open(filepath.Join(b.TempDir(), "evalbook.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		peakHeap(b, func() {
			if _, err := s.Record(context.Background(), synthRun(1_000_000, true, func(i int) float64 { return float64(i % 2) })); err != nil {
				b.Fatal(err)
			}
		})
		s.Close()
	}
}

func BenchmarkStoreDiff1M(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "evalbook.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for _, f := range []func(int) float64{
		func(i int) float64 { return float64(i % 2) },
		func(i int) float64 { return float64((i / 3) % 2) },
	} {
		if _, err := s.Record(ctx, synthRun(1_000_000, true, f)); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		peakHeap(b, func() {
			d, err := s.Diff(ctx, "1", "2", DiffOptions{})
			if err != nil || d.Paired != 1_000_000 {
				b.Fatal(d, err)
			}
		})
	}
}
