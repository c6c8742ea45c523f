package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestBenchMatchesAndSettles runs a small `tenger bench` against a real
// server, on a USDT pair (traders funded by chain deposits) and an MNT pair
// (the quote funded by bank transfers): every order is accepted, every
// crossing pair matches and settles, and the books audit clean afterwards
// with exactly the funding bench computed.
func TestBenchMatchesAndSettles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := &server{t: t, bin: buildBinary(t), data: t.TempDir(), addr: freeAddr(t), extra: []string{"--market-maker=false"}}
	s.start()
	defer s.kill()
	for _, run := range []struct{ symbol, price, qty string }{
		{"btcusdt", "50000", "0.0001"},   // 4 traders × 0.04 BTC, 4 × 2,000 USDT
		{"btcmnt", "150000000", "0.001"}, // 4 traders × 0.4 BTC, 4 × 60,000,000 MNT
	} {
		rep, err := bench(context.Background(), benchFlags{target: "http://" + s.addr, users: 4, orders: 200, concurrency: 8,
			symbol: run.symbol, price: run.price, qty: run.qty, timeout: defaultSettleTimeout}, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", run.symbol, err)
		}
		if rep.Accepted != 200 || rep.Rejected != 0 || rep.P99 <= 0 || rep.SettleTime < rep.SendTime {
			t.Fatalf("%s: report %+v", run.symbol, rep)
		}
	}
	s.kill()
	out, err := exec.Command(s.bin, "audit", "--data", s.data).CombinedOutput()
	for _, want := range []string{
		"BTC      holdings 1.76 = net external inflow 1.76",
		"USDT     holdings 8000 = net external inflow 8000",
		"MNT      holdings 240000000 = net external inflow 240000000",
	} {
		if err != nil || !strings.Contains(string(out), want) {
			t.Fatalf("audit: %v, want %q in\n%s", err, want, out)
		}
	}
}

// TestBenchCeiling runs `tenger bench --ceiling`'s measurement: the binary
// started as the no-op server answers every order call of the same client,
// and its CPU time over the run is read from /proc.
func TestBenchCeiling(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	rep, err := benchCeiling(context.Background(), buildBinary(t), benchFlags{orders: 2000, concurrency: 8,
		symbol: "btcusdt", price: "50000", qty: "0.0001"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 2000 || rep.Rejected != 0 || rep.P50 <= 0 || rep.P99 < rep.P50 || rep.SendTime <= 0 {
		t.Fatalf("report %+v", rep)
	}
	if runtime.GOOS == "linux" && rep.ServerCPU <= 0 {
		t.Fatalf("no server CPU time read: %+v", rep)
	}
	var out strings.Builder
	rep.print(&out)
	if !strings.Contains(out.String(), "2000 order calls answered by a no-op server") || !strings.Contains(out.String(), "µs per call") {
		t.Fatalf("printed:\n%s", out.String())
	}
}

// TestProcessCPU reads this process's CPU time, which a busy loop raises.
func TestProcessCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	before, ok := processCPU(os.Getpid())
	if !ok {
		t.Fatal("no CPU time for this process")
	}
	for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end); {
	}
	after, _ := processCPU(os.Getpid())
	if after < before+20*time.Millisecond {
		t.Fatalf("CPU time %v then %v after a 50 ms busy loop", before, after)
	}
	if _, ok := processCPU(-1); ok {
		t.Fatal("a process that does not exist has a CPU time")
	}
}
