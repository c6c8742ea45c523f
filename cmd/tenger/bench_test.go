package main

import (
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// TestBenchMatchesAndSettles runs a small `tenger bench` against a real
// server: every order is accepted, every crossing pair matches and settles,
// and the books audit clean afterwards.
func TestBenchMatchesAndSettles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := &server{t: t, bin: buildBinary(t), data: t.TempDir(), addr: freeAddr(t), extra: []string{"--market-maker=false"}}
	s.start()
	defer s.kill()
	rep, err := bench(context.Background(), benchFlags{target: "http://" + s.addr, users: 4, orders: 200, concurrency: 8,
		symbol: "btcusdt", price: "50000", qty: "0.0001", timeout: defaultSettleTimeout}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 200 || rep.Rejected != 0 || rep.P99 <= 0 || rep.SettleTime < rep.SendTime {
		t.Fatalf("report %+v", rep)
	}
	s.kill()
	out, err := exec.Command(s.bin, "audit", "--data", s.data).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "BTC      holdings 40000 = net external inflow 40000") {
		t.Fatalf("audit: %v\n%s", err, out)
	}
}
