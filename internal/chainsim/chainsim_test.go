package chainsim

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/store/embedded"
)

var ctx = context.Background()

type completions struct {
	mu  sync.Mutex
	got map[string]int
}

func (c *completions) Complete(_ context.Context, token string, ok bool, detail string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok {
		c.got[token+"|"+detail]++
	}
	return nil
}

func newSim(t *testing.T) (*Sim, *completions) {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	cat, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	c := &completions{got: map[string]int{}}
	return New(Options{Store: st, Coins: cat, Log: zerolog.Nop(), Completer: c}), c
}

func address(t *testing.T, c chain.Chain) string {
	d, _ := chain.New(chain.DevelopmentConfig())
	a, err := d.DepositAddress(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	return a.Address
}

func TestDepositConfirmationsGrowWithBlocks(t *testing.T) {
	s, _ := newSim(t)
	tx, err := s.Deposit(ctx, DepositReq{Coin: "BTC", Chain: "BTC", Address: address(t, chain.BTC), Amount: "0.25"})
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := s.Head(ctx, "BTC"); tx.Confirmations(h) != 0 || tx.Height != 1 || len(tx.TxID) != 64 {
		t.Fatalf("new tx %+v at %d", tx, h)
	}
	h, err := s.Mine(ctx, "BTC", 3)
	if err != nil || h != 3 || tx.Confirmations(h) != 3 {
		t.Fatalf("mine %d %v", h, err)
	}
	open, _ := s.OpenIncoming(ctx, "BTC")
	if len(open) != 1 || open[0].TxID != tx.TxID {
		t.Fatalf("open %+v", open)
	}
	if err := s.CloseIncoming(ctx, "BTC", tx.TxID); err != nil {
		t.Fatal(err)
	}
	if open, _ := s.OpenIncoming(ctx, "BTC"); len(open) != 0 {
		t.Fatalf("still open %+v", open)
	}
	for _, bad := range []DepositReq{
		{Coin: "BTC", Chain: "BTC", Address: address(t, chain.ETH), Amount: "1"},
		{Coin: "BTC", Chain: "ERC20", Address: address(t, chain.ETH), Amount: "1"},
		{Coin: "BTC", Chain: "BTC", Address: address(t, chain.BTC), Amount: "0.123456789"},
		{Coin: "BTC", Chain: "BTC", Address: address(t, chain.BTC), Amount: "-1"},
		{Coin: "ETH", Chain: "ETH", Address: address(t, chain.ETH), Memo: "5", Amount: "1"},
	} {
		if _, err := s.Deposit(ctx, bad); !errors.Is(err, ErrInput) {
			t.Fatalf("%+v: %v", bad, err)
		}
	}
	if _, err := s.Mine(ctx, "DOGE", 1); !errors.Is(err, ErrInput) {
		t.Fatalf("unknown chain: %v", err)
	}
	if _, err := s.Mine(ctx, "BTC", 0); !errors.Is(err, ErrInput) {
		t.Fatalf("zero blocks: %v", err)
	}
	if tx, err := s.Deposit(ctx, DepositReq{Coin: "USDT", Chain: "ERC20", Address: address(t, chain.ETH), Amount: "5"}); err != nil || tx.TxID[:2] != "0x" {
		t.Fatalf("EVM txid %+v %v", tx, err)
	}
}

func TestSendOncePerRefAndConfirm(t *testing.T) {
	s, c := newSim(t)
	req := SendReq{Ref: "w1", Coin: "ETH", Chain: "ETH", Address: address(t, chain.ETH), Amount: "0.5"}
	a, err := s.Send(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Send(ctx, req)
	if err != nil || b.TxID != a.TxID {
		t.Fatalf("second send %+v %v", b, err)
	}
	if l, _ := s.List(ctx, "ETH", 10); len(l) != 1 {
		t.Fatalf("sends %d", len(l))
	}
	if err := s.Watch(ctx, "ETH", a.TxID, "tok"); err != nil {
		t.Fatal(err)
	}
	s.Mine(ctx, "ETH", 11)
	if len(c.got) != 0 {
		t.Fatalf("confirmed early %v", c.got)
	}
	s.Mine(ctx, "ETH", 1)
	s.Mine(ctx, "ETH", 5)
	if c.got["tok|"+a.TxID] != 1 {
		t.Fatalf("completions %v", c.got)
	}
	// Watching a confirmed send reports it at once.
	if err := s.Watch(ctx, "ETH", a.TxID, "tok2"); err != nil {
		t.Fatal(err)
	}
	if c.got["tok2|"+a.TxID] != 1 {
		t.Fatalf("completions %v", c.got)
	}
	if err := s.Watch(ctx, "ETH", "nope", "t"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown tx: %v", err)
	}
	if _, err := s.Send(ctx, SendReq{Ref: "w2", Coin: "ETH", Chain: "ETH", Address: "0x1", Amount: "1"}); !errors.Is(err, ErrInput) {
		t.Fatalf("bad address: %v", err)
	}
}
