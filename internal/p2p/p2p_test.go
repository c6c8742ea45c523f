package p2p

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
	"tenger/internal/workflow"
)

var ctx = context.Background()

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

type profiles map[string]Profile

func (p profiles) P2PProfile(_ context.Context, uid string) (Profile, error) { return p[uid], nil }

// methods gives every user one bank and one qpay method.
type methods struct{}

func (methods) Methods(_ context.Context, uid string, ids []string) ([]Method, error) {
	var out []Method
	for _, id := range ids {
		switch id {
		case "bank-" + uid:
			out = append(out, Method{ID: id, Kind: "bank", Title: "Khan Bank", UserName: "User " + uid, Account: "MN120005005123456789"})
		case "qpay-" + uid:
			out = append(out, Method{ID: id, Kind: "qpay", Title: "QPay", UserName: "User " + uid, Account: "99112233"})
		default:
			return nil, apperr.New(apperr.CodeParam)
		}
	}
	return out, nil
}

type fund struct{}

func (fund) FundPasswordSet(_ context.Context, uid string) (bool, error) { return uid != "nofund", nil }
func (fund) CheckFundPassword(_ context.Context, _, pw string) (bool, error) {
	return pw == "fund-pw", nil
}

type rates struct{}

func (rates) Rate(_ context.Context, coin, fiat string) (decimal.Decimal, bool, error) {
	if coin == "USDT" && fiat == "MNT" {
		return decimal.RequireFromString("3450"), true, nil
	}
	return decimal.Zero, false, nil
}

type env struct {
	st     store.Store
	l      *ledger.Ledger
	svc    *Service
	clock  *clock
	runner *workflow.Runner
}

func newEnv(t testing.TB) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	c := &clock{t: time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)}
	l := ledger.New(st, c.Now)
	e := &env{st: st, l: l, clock: c}
	e.runner = workflow.New(workflow.Options{Store: st, Now: c.Now, Log: zerolog.Nop(), BackoffBase: time.Millisecond, BackoffMax: time.Millisecond})
	var svc *Service
	svc = New(Options{Store: st, Ledger: l, Now: c.Now, Log: zerolog.Nop(),
		Profiles: profiles{"m1": {Nick: "Merchant", KYCVerified: true}, "t1": {Nick: "Taker", KYCVerified: true}, "t2": {Nick: "Second"}},
		Methods:  methods{}, Fund: fund{}, Rates: rates{},
		Start: func(id string, input any, now, at time.Time) (store.Op, error) {
			return workflow.StartOpAt(svc.TimeoutDefinition(), id, input, now, at)
		}})
	e.svc = svc
	e.runner.Register(svc.TimeoutDefinition())
	return e
}

// fund credits a user's OTC account from the outside (a chain deposit).
func (e *env) deposit(t testing.TB, uid, coin, amount string) {
	t.Helper()
	_, err := e.l.Post(ctx, ledger.Posting{ID: "dep:" + uid + ":" + coin + ":" + amount + ":" + randHex(4), Reason: "deposit",
		Legs: []ledger.Leg{ledger.Move(ledger.ChainAccount("TRC20"), otc(uid), coin, decimal.RequireFromString(amount))}})
	if err != nil {
		t.Fatal(err)
	}
}

func (e *env) merchant(t testing.TB, uid string) {
	t.Helper()
	if _, err := e.svc.MerchantApply(ctx, uid); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.DecideMerchant(ctx, uid, "desk", true); err != nil {
		t.Fatal(err)
	}
}

func (e *env) balance(t testing.TB, uid, coin string) (avail, frozen string) {
	t.Helper()
	b, err := e.l.Balance(ctx, otc(uid), coin)
	if err != nil {
		t.Fatal(err)
	}
	return b.Available.String(), b.Frozen.String()
}

func (e *env) wantBalance(t testing.TB, uid, coin, avail, frozen string) {
	t.Helper()
	a, f := e.balance(t, uid, coin)
	if a != avail || f != frozen {
		t.Fatalf("%s %s: available %s frozen %s, want %s and %s", uid, coin, a, f, avail, frozen)
	}
}

func (e *env) audit(t testing.TB) {
	t.Helper()
	rep, err := e.l.Audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Clean() {
		var b strings.Builder
		rep.Write(&b)
		t.Fatalf("audit:\n%s", b.String())
	}
}

func wantCode(t testing.TB, err error, code string) {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Entry.Code != code {
		t.Fatalf("want code %s, got %v", code, err)
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func sellAd(amount string) AdInput {
	return AdInput{Side: Sell, Coin: "USDT", Fiat: "MNT", PriceType: PriceFixed, Price: dec("3500"), Amount: dec(amount),
		MinFiat: dec("10000"), MaxFiat: dec("1000000"), MethodIDs: []string{"bank-m1"}, PayMinutes: 15, Terms: "Pay from your own account."}
}

// The whole life of orders on a SELL ad: escrow from the ad, pay, release;
// a cancel back to the ad; a timeout; an appeal the operator decides each
// way; balances and the audit after each.
func TestSellAdOrders(t *testing.T) {
	e := newEnv(t)
	e.deposit(t, "m1", "USDT", "1000")
	e.merchant(t, "m1")

	_, err := e.svc.SaveAd(ctx, "t1", AdInput{Side: Sell, Coin: "USDT", Fiat: "MNT", PriceType: PriceFixed, Price: dec("3500"),
		Amount: dec("10"), MinFiat: dec("100"), MaxFiat: dec("1000"), MethodIDs: []string{"bank-t1"}, PayMinutes: 15})
	wantCode(t, err, apperr.CodeP2PNotMerchant)

	_, err = e.svc.SaveAd(ctx, "m1", sellAd("1001"))
	wantCode(t, err, apperr.CodeP2PInsufficient)
	ad, err := e.svc.SaveAd(ctx, "m1", sellAd("500"))
	if err != nil {
		t.Fatal(err)
	}
	e.wantBalance(t, "m1", "USDT", "500", "500")

	// Own ad, limits, remaining.
	_, err = e.svc.OpenOrder(ctx, "m1", OrderInput{AdID: ad.ID, Side: Buy, Volume: dec("10")})
	wantCode(t, err, apperr.CodeP2POwnAd)
	_, err = e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Buy, Volume: dec("1")})
	wantCode(t, err, apperr.CodeP2POrderLimits)
	_, err = e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Sell, Volume: dec("10")})
	wantCode(t, err, apperr.CodeParam)

	// 1. Open by fiat amount, pay, release.
	o, err := e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Buy, Amount: dec("350000")})
	if err != nil {
		t.Fatal(err)
	}
	if o.Volume.String() != "100" || o.Total.String() != "350000" || o.Status != StatusPending || o.Side != Buy || len(o.Methods) != 1 {
		t.Fatalf("order %+v", o)
	}
	if a, _ := e.svc.AdDetail(ctx, ad.ID); a.Remaining.String() != "400" {
		t.Fatalf("ad remaining %s", a.Remaining)
	}
	e.wantBalance(t, "m1", "USDT", "500", "500") // still frozen: ad 400 + order 100
	_, err = e.svc.Release(ctx, "m1", o.ID, "fund-pw")
	wantCode(t, err, apperr.CodeP2POrderState) // not paid yet
	_, err = e.svc.MarkPaid(ctx, "m1", o.ID)
	wantCode(t, err, apperr.CodeP2POrderRole)
	_, err = e.svc.MarkPaid(ctx, "t2", o.ID)
	wantCode(t, err, apperr.CodeP2POrderNotFound) // another user's order reads as none
	if _, err = e.svc.Send(ctx, "t1", o.ID, "Paid from Khan Bank", ""); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.Send(ctx, "t2", o.ID, "hello", "")
	wantCode(t, err, apperr.CodeP2POrderNotFound)
	if o, err = e.svc.MarkPaid(ctx, "t1", o.ID); err != nil || o.Status != StatusBuyerPaid {
		t.Fatalf("paid: %v %v", o.Status, err)
	}
	_, err = e.svc.Release(ctx, "t1", o.ID, "fund-pw")
	wantCode(t, err, apperr.CodeP2POrderRole)
	_, err = e.svc.Release(ctx, "m1", o.ID, "wrong")
	wantCode(t, err, apperr.CodeP2PFundPassword)
	if o, err = e.svc.Release(ctx, "m1", o.ID, "fund-pw"); err != nil || o.Status != StatusCompleted {
		t.Fatalf("release: %v %v", o.Status, err)
	}
	_, err = e.svc.Release(ctx, "m1", o.ID, "fund-pw")
	wantCode(t, err, apperr.CodeP2POrderState) // never twice
	e.wantBalance(t, "m1", "USDT", "500", "400")
	e.wantBalance(t, "t1", "USDT", "100", "0")
	msgs, err := e.svc.Messages(ctx, "m1", o.ID, "")
	if err != nil || len(msgs) != 4 || msgs[0].Text != "created" || msgs[1].Text != "Paid from Khan Bank" || msgs[3].Text != "released" {
		t.Fatalf("chat %+v %v", msgs, err)
	}
	st, _ := e.svc.Stats(ctx, "m1")
	if st.Trades != 1 || st.Sells != 1 || st.CompletionRate != "100.00" {
		t.Fatalf("merchant stats %+v", st)
	}
	e.audit(t)

	// 2. Cancelled by the buyer: back to the ad.
	o2, err := e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Buy, Volume: dec("50")})
	if err != nil {
		t.Fatal(err)
	}
	if o2, err = e.svc.Cancel(ctx, "t1", o2.ID); err != nil || o2.Status != StatusCancelled || o2.CancelBy != "buyer" {
		t.Fatalf("cancel: %+v %v", o2, err)
	}
	if a, _ := e.svc.AdDetail(ctx, ad.ID); a.Remaining.String() != "400" {
		t.Fatalf("ad remaining after cancel %s", a.Remaining)
	}
	e.wantBalance(t, "m1", "USDT", "500", "400")

	// 3. Unpaid at the deadline: the workflow cancels it.
	o3, err := e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Buy, Volume: dec("20")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.runner.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	if cur, _ := e.svc.Order(ctx, "t1", o3.ID); cur.Status != StatusPending {
		t.Fatalf("cancelled before its time: %s", cur.Status)
	}
	e.clock.Add(15*time.Minute + time.Second)
	_, err = e.svc.MarkPaid(ctx, "t1", o3.ID)
	wantCode(t, err, apperr.CodeP2POrderState)
	if n, err := e.runner.RunDue(ctx); err != nil || n != 3 { // o3, and the finished o1 and o2, whose steps find nothing to do
		t.Fatalf("timeout ran %d: %v", n, err)
	}
	if cur, _ := e.svc.Order(ctx, "t1", o3.ID); cur.Status != StatusCancelledBySystem || cur.CancelBy != "system" {
		t.Fatalf("after the deadline: %+v", cur)
	}
	if a, _ := e.svc.AdDetail(ctx, ad.ID); a.Remaining.String() != "400" {
		t.Fatalf("ad remaining after timeout %s", a.Remaining)
	}

	// 4. Appeal, released by the operator; 5. appeal refunded after the ad closed.
	o4, _ := e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Buy, Volume: dec("30")})
	o5, _ := e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Buy, Volume: dec("40")})
	for _, id := range []string{o4.ID, o5.ID} {
		if _, err := e.svc.MarkPaid(ctx, "t1", id); err != nil {
			t.Fatal(err)
		}
	}
	_, err = e.svc.Complain(ctx, "t1", o4.ID, "paid_not_released", "", nil)
	wantCode(t, err, apperr.CodeP2PAppealField)
	if _, err := e.svc.Complain(ctx, "t1", o4.ID, "paid_not_released", "I paid 105000 MNT at 09:01.", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Complain(ctx, "m1", o5.ID, "not_received", "Nothing arrived.", nil); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.ComplainCancel(ctx, "t1", o5.ID)
	wantCode(t, err, apperr.CodeP2PAppealNotYours)
	queue, _ := e.svc.Appeals(ctx)
	if len(queue) != 2 {
		t.Fatalf("appeal queue %d", len(queue))
	}
	if o4, err = e.svc.Decide(ctx, o4.ID, OutcomeRelease, "desk", "payment proven"); err != nil || o4.Status != StatusCompleted ||
		o4.Appeal.Status != "decided" || o4.Appeal.Outcome != OutcomeRelease {
		t.Fatalf("decide release: %+v %v", o4, err)
	}
	if err := e.svc.CloseAd(ctx, "m1", ad.ID); err != nil {
		t.Fatal(err)
	}
	e.wantBalance(t, "m1", "USDT", "830", "40") // 500 + 330 from the closed ad; o5's 40 still in escrow
	if o5, err = e.svc.Decide(ctx, o5.ID, OutcomeRefund, "desk", "no payment"); err != nil || o5.Status != StatusCancelled || o5.CancelBy != "operator" {
		t.Fatalf("decide refund: %+v %v", o5, err)
	}
	_, err = e.svc.Decide(ctx, o5.ID, OutcomeRelease, "desk", "")
	wantCode(t, err, apperr.CodeP2PAppealDecision)
	e.wantBalance(t, "m1", "USDT", "870", "0")
	e.wantBalance(t, "t1", "USDT", "130", "0")
	if queue, _ = e.svc.Appeals(ctx); len(queue) != 0 {
		t.Fatalf("appeal queue after decisions %d", len(queue))
	}
	open, n, _ := e.svc.Orders(ctx, "t1", true, 1, 20)
	done, m, _ := e.svc.Orders(ctx, "t1", false, 1, 20)
	if n != 0 || len(open) != 0 || m != 5 || len(done) != 5 {
		t.Fatalf("lists: %d open, %d done", n, m)
	}
	// The finished list's entries carry each order as it finished: what
	// the order page shows (appeal, who cancelled, times, nicknames).
	for _, d := range done {
		full, err := e.svc.Order(ctx, "t1", d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := jsonOf(t, d), jsonOf(t, full); a != b {
			t.Fatalf("finished list entry\n%s\nthe order\n%s", a, b)
		}
	}
	i := slices.IndexFunc(done, func(d Order) bool { return d.ID == o5.ID })
	if i < 0 || done[i].Appeal == nil || done[i].Appeal.Outcome != OutcomeRefund || done[i].CancelBy != "operator" || done[i].BuyerNick != "Taker" {
		t.Fatalf("refunded by the operator: %d %+v", i, done)
	}
	e.audit(t)
}

func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The dev simulator's fast-forward: an unpaid order's time to pay ends
// now and its own timeout workflow cancels it, as at the deadline; the
// escrow goes back to the ad. A paid or finished order is refused.
func TestEndPaymentTime(t *testing.T) {
	e := newEnv(t)
	e.deposit(t, "m1", "USDT", "100")
	e.merchant(t, "m1")
	ad, err := e.svc.SaveAd(ctx, "m1", sellAd("100"))
	if err != nil || ad.Nick != "Merchant" {
		t.Fatalf("ad %+v %v", ad, err)
	}
	o, err := e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Buy, Volume: dec("10")})
	if err != nil {
		t.Fatal(err)
	}
	paid, _ := e.svc.OpenOrder(ctx, "t2", OrderInput{AdID: ad.ID, Side: Buy, Volume: dec("5")})
	if _, err := e.svc.MarkPaid(ctx, "t2", paid.ID); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.EndPaymentTime(ctx, paid.ID)
	wantCode(t, err, apperr.CodeP2POrderState)
	_, err = e.svc.EndPaymentTime(ctx, "1")
	wantCode(t, err, apperr.CodeP2POrderNotFound)

	e.clock.Add(time.Minute)
	ended, err := e.svc.EndPaymentTime(ctx, o.ID)
	if err != nil || ended.Deadline != e.clock.Now().UnixMilli() || ended.Status != StatusPending {
		t.Fatalf("ended %+v %v", ended, err)
	}
	if n, err := e.runner.RunDue(ctx); err != nil || n != 1 { // o's timeout only; paid's is still 14 minutes away
		t.Fatalf("due %d %v", n, err)
	}
	cur, _ := e.svc.Order(ctx, "t1", o.ID)
	if cur.Status != StatusCancelledBySystem || cur.CancelBy != "system" {
		t.Fatalf("after the end of its time: %+v", cur)
	}
	if a, _ := e.svc.AdDetail(ctx, ad.ID); a.Remaining.String() != "95" {
		t.Fatalf("ad remaining %s", a.Remaining)
	}
	e.wantBalance(t, "m1", "USDT", "0", "100") // 95 on the ad, 5 in the paid order's escrow
	_, err = e.svc.EndPaymentTime(ctx, o.ID)
	wantCode(t, err, apperr.CodeP2POrderState)
	e.audit(t)
}

// A BUY ad: the taker sells, their coins are held when the order opens
// and released to the merchant.
func TestBuyAdOrder(t *testing.T) {
	e := newEnv(t)
	e.merchant(t, "m1")
	e.deposit(t, "t1", "USDT", "50")
	ad, err := e.svc.SaveAd(ctx, "m1", AdInput{Side: Buy, Coin: "USDT", Fiat: "MNT", PriceType: PriceFloating, MarginPct: dec("99"),
		Amount: dec("1000"), MinFiat: dec("10000"), MaxFiat: dec("500000"), MethodIDs: []string{"bank-m1", "qpay-m1"}, PayMinutes: 30})
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := e.svc.AdDetail(ctx, ad.ID); a.Price.String() != "3415.5" {
		t.Fatalf("floating price %s", a.Price)
	}
	_, err = e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Sell, Volume: dec("60"), MethodIDs: []string{"qpay-t1"}})
	wantCode(t, err, apperr.CodeP2PInsufficient)
	o, err := e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Sell, Volume: dec("40"), MethodIDs: []string{"qpay-t1"}})
	if err != nil {
		t.Fatal(err)
	}
	if o.Buyer != "m1" || o.Seller != "t1" || o.Methods[0].ID != "qpay-t1" || o.Total.String() != "136620" {
		t.Fatalf("order %+v", o)
	}
	e.wantBalance(t, "t1", "USDT", "10", "40")
	if _, err := e.svc.MarkPaid(ctx, "m1", o.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Release(ctx, "t1", o.ID, "fund-pw"); err != nil {
		t.Fatal(err)
	}
	e.wantBalance(t, "t1", "USDT", "10", "0")
	e.wantBalance(t, "m1", "USDT", "40", "0")
	// A cancelled one returns the taker's coins.
	o2, err := e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Sell, Volume: dec("10"), MethodIDs: []string{"qpay-t1"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Cancel(ctx, "m1", o2.ID); err != nil {
		t.Fatal(err)
	}
	e.wantBalance(t, "t1", "USDT", "10", "0")
	if a, _ := e.svc.AdDetail(ctx, ad.ID); a.Remaining.String() != "960" {
		t.Fatalf("ad remaining %s", a.Remaining)
	}
	e.audit(t)
}

// Random concurrent ads, orders, payments, cancels, releases, appeals,
// decisions and timeouts: no escrow is released twice, none both released
// and refunded, every seller's frozen balance is what their ads and open
// orders hold, and the audit is clean.
func TestConcurrentProperty(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { runProperty(t, seed) })
	}
}

func runProperty(t *testing.T, seed int64) {
	e := newEnv(t)
	users := []string{"m1", "m2", "t1", "t2"}
	prof := profiles{}
	for _, u := range users {
		prof[u] = Profile{Nick: u, KYCVerified: true}
		e.deposit(t, u, "USDT", "10000")
	}
	e.svc.o.Profiles = prof
	e.merchant(t, "m1")
	e.merchant(t, "m2")
	var ads []string
	for _, m := range []string{"m1", "m2"} {
		in := sellAd("2000")
		in.MethodIDs = []string{"bank-" + m}
		a, err := e.svc.SaveAd(ctx, m, in)
		if err != nil {
			t.Fatal(err)
		}
		ads = append(ads, a.ID)
		b := AdInput{Side: Buy, Coin: "USDT", Fiat: "MNT", PriceType: PriceFixed, Price: dec("3400"), Amount: dec("3000"),
			MinFiat: dec("1000"), MaxFiat: dec("5000000"), MethodIDs: []string{"bank-" + m}, PayMinutes: 15}
		if a, err = e.svc.SaveAd(ctx, m, b); err != nil {
			t.Fatal(err)
		}
		ads = append(ads, a.ID)
	}
	var mu sync.Mutex
	var orders []string
	rnd := newRand(seed)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		r := rnd.fork()
		go func() {
			defer wg.Done()
			for i := 0; i < 60; i++ {
				taker := []string{"t1", "t2", "m2", "m1"}[r.n(4)]
				mu.Lock()
				var id string
				if len(orders) > 0 {
					id = orders[r.n(len(orders))]
				}
				mu.Unlock()
				switch r.n(9) {
				case 0, 1:
					ad := ads[r.n(len(ads))]
					side := Buy
					if a, err := e.svc.readAd(ctx, ad); err == nil && a.Side == Buy {
						side = Sell
					}
					o, err := e.svc.OpenOrder(ctx, taker, OrderInput{AdID: ad, Side: side, Volume: decimal.NewFromInt(int64(3 + r.n(40))),
						MethodIDs: []string{"bank-" + taker}})
					if err == nil {
						mu.Lock()
						orders = append(orders, o.ID)
						mu.Unlock()
					}
				case 2:
					if id != "" {
						o, err := e.svc.readOrder(ctx, id)
						if err == nil {
							_, err = e.svc.MarkPaid(ctx, o.Buyer, id)
						}
						if err == nil && r.n(2) == 0 {
							_, _ = e.svc.Release(ctx, o.Seller, id, "fund-pw")
						}
					}
				case 3:
					if id != "" {
						if o, err := e.svc.readOrder(ctx, id); err == nil {
							_, _ = e.svc.Release(ctx, o.Seller, id, "fund-pw")
						}
					}
				case 4:
					if id != "" {
						if o, err := e.svc.readOrder(ctx, id); err == nil {
							_, _ = e.svc.Cancel(ctx, o.Buyer, id)
						}
					}
				case 5:
					if id != "" {
						if o, err := e.svc.readOrder(ctx, id); err == nil {
							who := []string{o.Buyer, o.Seller}[r.n(2)]
							_, _ = e.svc.Complain(ctx, who, id, "other", "see chat", nil)
						}
					}
				case 6:
					if id != "" {
						_, _ = e.svc.Decide(ctx, id, []string{OutcomeRelease, OutcomeRefund}[r.n(2)], "desk", "")
					}
				case 7:
					e.clock.Add(time.Duration(r.n(30)) * time.Second)
					_, _ = e.runner.RunDue(ctx)
				case 8:
					if r.n(10) == 0 {
						ad := ads[r.n(len(ads))]
						if a, err := e.svc.readAd(ctx, ad); err == nil {
							_ = e.svc.CloseAd(ctx, a.UID, ad)
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	// Let every deadline pass and the timeouts run.
	e.clock.Add(time.Hour)
	for i := 0; i < 5; i++ {
		if _, err := e.runner.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
	}
	e.audit(t)
	// Each order: at most one of release and refund, and the posting
	// matches its final state.
	released, refunded, completed := 0, 0, 0
	for _, id := range orders {
		o, err := e.svc.readOrder(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		_, relErr := e.l.Lookup(ctx, "p2p:order:"+id+":release")
		_, refErr := e.l.Lookup(ctx, "p2p:order:"+id+":refund")
		rel, ref := relErr == nil, refErr == nil
		if rel && ref {
			t.Fatalf("order %s both released and refunded", id)
		}
		if rel != (o.Status == StatusCompleted) {
			t.Fatalf("order %s is %s, released %v", id, o.Status, rel)
		}
		if ref && !Finished(o.Status) {
			t.Fatalf("order %s is %s but refunded", id, o.Status)
		}
		if rel {
			released++
		}
		if ref {
			refunded++
		}
		if o.Status == StatusCompleted {
			completed++
		}
	}
	for _, u := range users {
		want, err := e.svc.Escrowed(ctx, u, "USDT")
		if err != nil {
			t.Fatal(err)
		}
		_, frozen := e.balance(t, u, "USDT")
		if frozen != want.String() {
			t.Fatalf("%s frozen %s, ads and open orders hold %s", u, frozen, want)
		}
	}
	t.Logf("seed %d: %d orders, %d completed, %d refunds by posting", seed, len(orders), completed, refunded)
	if len(orders) < 20 || completed == 0 {
		t.Fatalf("the random walk did too little: %d orders, %d completed", len(orders), completed)
	}
}

// rng is a small deterministic generator per worker (math/rand/v2's PCG).
type rng struct{ s uint64 }

func newRand(seed int64) *rng { return &rng{s: uint64(seed)*0x9E3779B97F4A7C15 + 1} }
func (r *rng) next() uint64 {
	r.s ^= r.s << 13
	r.s ^= r.s >> 7
	r.s ^= r.s << 17
	return r.s
}
func (r *rng) n(k int) int { return int(r.next() % uint64(k)) }
func (r *rng) fork() *rng  { return &rng{s: r.next() | 1} }

// Express quotes the best ad that fills the whole amount, never the
// caller's own, and says so when none can.
func TestExpress(t *testing.T) {
	e := newEnv(t)
	e.deposit(t, "m1", "USDT", "1000")
	e.merchant(t, "m1")
	cheap := sellAd("100")
	cheap.Price, cheap.MaxFiat = dec("3400"), dec("200000")
	dear := sellAd("500")
	dear.Price = dec("3500")
	if _, err := e.svc.SaveAd(ctx, "m1", cheap); err != nil {
		t.Fatal(err)
	}
	dearAd, err := e.svc.SaveAd(ctx, "m1", dear)
	if err != nil {
		t.Fatal(err)
	}
	q, err := e.svc.Express(ctx, "t1", QuoteInput{Side: Buy, Coin: "USDT", Amount: dec("170000")})
	if err != nil || q.Price.String() != "3400" || q.Volume.String() != "50" || q.Total.String() != "170000" {
		t.Fatalf("cheapest that fits: %+v %v", q, err)
	}
	// Above the cheap ad's limit: the next one.
	q, err = e.svc.Express(ctx, "t1", QuoteInput{Side: Buy, Coin: "USDT", Volume: dec("200")})
	if err != nil || q.AdID != dearAd.ID || q.Total.String() != "700000" {
		t.Fatalf("the next ad: %+v %v", q, err)
	}
	_, err = e.svc.Express(ctx, "m1", QuoteInput{Side: Buy, Coin: "USDT", Volume: dec("10")})
	wantCode(t, err, apperr.CodeP2PNoQuote) // only the caller's own ads
	_, err = e.svc.Express(ctx, "t1", QuoteInput{Side: Buy, Coin: "USDT", Volume: dec("600")})
	wantCode(t, err, apperr.CodeP2PNoQuote)
	_, err = e.svc.Express(ctx, "t1", QuoteInput{Side: Buy, Coin: "USDT", Volume: dec("1"), Amount: dec("3500")})
	wantCode(t, err, apperr.CodeParam)
	if av, err := e.svc.Available(ctx, "m1", "usdt"); err != nil || av.String() != "400" {
		t.Fatalf("available %s %v", av, err)
	}
}

// A block works both ways: neither opens an order on the other's ads, and
// the blocker's searches leave the blocked trader's ads out.
func TestBlock(t *testing.T) {
	e := newEnv(t)
	e.deposit(t, "m1", "USDT", "100")
	e.merchant(t, "m1")
	ad, err := e.svc.SaveAd(ctx, "m1", sellAd("100"))
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, e.svc.SetRelation(ctx, "t1", "t1", RelationBlock), apperr.CodeP2PRelation)
	wantCode(t, e.svc.SetRelation(ctx, "t1", "m1", "hate"), apperr.CodeP2PRelation)
	if err := e.svc.SetRelation(ctx, "m1", "t1", RelationBlock); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Buy, Volume: dec("10")})
	wantCode(t, err, apperr.CodeP2PBlocked)
	if err := e.svc.RemoveRelation(ctx, "m1", "t1"); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SetRelation(ctx, "t1", "m1", RelationBlock); err != nil {
		t.Fatal(err)
	}
	if ads, n, _ := e.svc.Search(ctx, "t1", SearchFilter{Side: Buy, Coin: "USDT", Fiat: "MNT"}); n != 0 || len(ads) != 0 {
		t.Fatalf("blocked merchant's ads shown: %d", n)
	}
	if _, n, _ := e.svc.Search(ctx, "t2", SearchFilter{Side: Buy, Coin: "USDT", Fiat: "MNT"}); n != 1 {
		t.Fatalf("others see %d ads", n)
	}
	_, err = e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Buy, Volume: dec("10")})
	wantCode(t, err, apperr.CodeP2PBlocked)
	if err := e.svc.SetRelation(ctx, "t1", "m1", RelationFollow); err != nil {
		t.Fatal(err)
	}
	if rel, _ := e.svc.Relations(ctx, "t1"); len(rel) != 1 || rel[0].Relation != RelationFollow || rel[0].Nick != "Merchant" {
		t.Fatalf("relations %+v", rel)
	}
	if _, err := e.svc.OpenOrder(ctx, "t1", OrderInput{AdID: ad.ID, Side: Buy, Volume: dec("10")}); err != nil {
		t.Fatal(err)
	}
}
