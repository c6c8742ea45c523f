package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/p2p"
	"tenger/internal/platform"
	"tenger/internal/store"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

type verified struct{}

func (verified) P2PProfile(context.Context, string) (p2p.Profile, error) {
	return p2p.Profile{Nick: "n", KYCVerified: true}, nil
}

type oneMethod struct{}

func (oneMethod) Methods(_ context.Context, _ string, ids []string) ([]p2p.Method, error) {
	return []p2p.Method{{ID: ids[0], Kind: "bank", Title: "Khan Bank", Account: "MN120005005123456789"}}, nil
}

// sample reads the recorded Step Functions task input with the order filled in.
func sample(t *testing.T, orderID string) input {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", "sfn_p2p_timeout.json"))
	if err != nil {
		t.Fatal(err)
	}
	var in input
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(b), "{{orderId}}", orderID)), &in); err != nil {
		t.Fatal(err)
	}
	return in
}

// TestExpire runs the deadline's task as the state machine does, on
// DynamoDB Local with the key-space guard: early it answers NotDue (the
// state machine's retry), at the deadline it cancels the unpaid order and
// returns the escrow to the ad, and run again it changes nothing.
func TestExpire(t *testing.T) {
	ctx := context.Background()
	st := fntest.Table(t, "p2ptimeout")
	c := &clock{t: time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)}
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	d := &platform.Deps{Store: st, Log: zerolog.Nop(), Now: c.now, Coins: cc, Markets: markets.Defaults(), Config: platform.Config{Stage: "test"}}
	// The order, set up by the test with the service the p2p function runs.
	setup := p2p.New(p2p.Options{Store: st, Ledger: d.Ledger(), Profiles: verified{}, Methods: oneMethod{}, Now: c.now, Log: zerolog.Nop()})
	if _, err := d.Ledger().Post(ctx, ledger.Posting{ID: "dep:p2ptimeout", Reason: "deposit", Legs: []ledger.Leg{
		ledger.Move(ledger.ChainAccount("TRC20"), ledger.UserAccount("10000001", ledger.OTC), "USDT", decimal.NewFromInt(100))}}); err != nil {
		t.Fatal(err)
	}
	if _, err := setup.MerchantApply(ctx, "10000001"); err != nil {
		t.Fatal(err)
	}
	if err := setup.DecideMerchant(ctx, "10000001", "desk", true); err != nil {
		t.Fatal(err)
	}
	ad, err := setup.SaveAd(ctx, "10000001", p2p.AdInput{Side: p2p.Sell, Coin: "USDT", Fiat: "MNT", PriceType: p2p.PriceFixed,
		Price: decimal.NewFromInt(3500), Amount: decimal.NewFromInt(100), MinFiat: decimal.NewFromInt(1000),
		MaxFiat: decimal.NewFromInt(1000000), MethodIDs: []string{"m"}, PayMinutes: 15})
	if err != nil {
		t.Fatal(err)
	}
	o, err := setup.OpenOrder(ctx, "10000002", p2p.OrderInput{AdID: ad.ID, Side: p2p.Buy, Volume: decimal.NewFromInt(30)})
	if err != nil {
		t.Fatal(err)
	}

	h := handler(awslambda.NewRuntime("p2ptimeout", io.Discard), d)
	_, err = h(ctx, sample(t, o.ID))
	var early *NotDue
	if !errors.As(err, &early) {
		t.Fatalf("before the deadline: %v", err)
	}
	c.add(15*time.Minute + time.Second)
	out, err := h(ctx, sample(t, o.ID))
	if err != nil || !out.Cancelled || out.OrderID != o.ID {
		t.Fatalf("at the deadline: %+v %v", out, err)
	}
	if out, err = h(ctx, sample(t, o.ID)); err != nil || out.Cancelled {
		t.Fatalf("again: %+v %v", out, err)
	}
	cur, err := setup.OrderForOperator(ctx, o.ID)
	if err != nil || cur.Status != p2p.StatusCancelledBySystem {
		t.Fatalf("order %+v %v", cur, err)
	}
	a, err := setup.AdDetail(ctx, ad.ID)
	if err != nil || a.Remaining.String() != "100" {
		t.Fatalf("ad %+v %v", a.Remaining, err)
	}
	var bad *Malformed
	if _, err := h(ctx, input{}); !errors.As(err, &bad) {
		t.Fatalf("no order: %v", err)
	}
	if out, err := h(ctx, sample(t, "1796634000000999999")); err != nil || out.Cancelled {
		t.Fatalf("an unknown order: %+v %v", out, err)
	}
	if _, err := st.Get(ctx, store.Key{PK: "P2PORD#" + o.ID, SK: "O"}); err != nil {
		t.Fatal(err)
	}
}
