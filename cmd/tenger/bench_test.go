package main

import (
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
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
