package withdraw_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/withdraw"
)

// levelLimits is a user's limit as the KYC service gives it: by user, the
// unverified one for anybody else.
type levelLimits struct {
	mu   sync.Mutex
	by   map[string]decimal.Decimal
	fail error
}

func (l *levelLimits) DailyLimitUSDT(_ context.Context, uid string) (decimal.Decimal, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fail != nil {
		return decimal.Zero, l.fail
	}
	if v, ok := l.by[uid]; ok {
		return v, nil
	}
	return decimal.NewFromInt(1000), nil
}

func (l *levelLimits) set(uid string, usdt int64) {
	l.mu.Lock()
	l.by[uid] = decimal.NewFromInt(usdt)
	l.mu.Unlock()
}

// The service asks Limits for each user's limit: the submit refuses above
// it with the daily-limit code, get_cost shows it, and a raised limit (a
// verification) lets the same withdrawal through.
func TestLimitIsTheUsersOwn(t *testing.T) {
	e := newEnv(t)
	lim := &levelLimits{by: map[string]decimal.Decimal{"u1": decimal.NewFromInt(50)}}
	svc := withdraw.New(withdraw.Options{Store: e.st, Ledger: e.led, Coins: e.cat, Wallet: e.wal, Auth: e.auth, Chain: e.chain,
		Bank: e.bank, Deposits: e.owners, Limits: lim, Now: e.clk.Now, Log: zerolog.Nop()})
	e.user("u1", true, false, false)
	e.fund("u1", "BTC", "BTC", "1")
	e.wal.setPrice("BTC", "50000")

	c, err := svc.Cost(ctx, "u1", "BTC", "BTC")
	if err != nil {
		t.Fatal(err)
	}
	if c.TotalWithdrawDailyMaxLimit != "50.00" || c.LeftWithdrawDailyAmount != "50.00" || c.LeftWithdrawDailyCoin != "0.00100000" {
		t.Fatalf("cost %+v", c)
	}
	e.auth.issue("u1")
	ae := wantCode(t, func() error { _, err := svc.Confirm(ctx, "u1", btcInput(t, "0.002", allCodes)); return err }(), apperr.CodeDailyLimit)
	if d, _ := ae.Data.(map[string]string); d["limit"] != "50.00" || d["left"] != "50.00" {
		t.Fatalf("data %+v", ae.Data)
	}
	// The limit cannot be read: nothing is submitted.
	lim.fail = errors.New("store unavailable")
	e.auth.issue("u1")
	wantCode(t, func() error { _, err := svc.Confirm(ctx, "u1", btcInput(t, "0.001", allCodes)); return err }(), apperr.CodeInternal)
	lim.fail = nil
	// Verified: the full limit.
	lim.set("u1", 100000)
	e.auth.issue("u1")
	if _, err := svc.Confirm(ctx, "u1", btcInput(t, "0.002", allCodes)); err != nil {
		t.Fatal(err)
	}
	if c, _ = svc.Cost(ctx, "u1", "BTC", "BTC"); c.TotalWithdrawDailyMaxLimit != "100000.00" || c.UsedWithdrawDailyAmount != "100.00" {
		t.Fatalf("cost after %+v", c)
	}
	// Without Limits every user has withdraw_daily_limit_usdt, as before.
	if l, err := e.svc.DailyLimitOf(ctx, "u1"); err != nil || !l.Equal(withdraw.DefaultDailyLimitUSDT) {
		t.Fatalf("default %s %v", l, err)
	}
}
