package earn

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/store"
)

func codeOf(err error) string { return apperr.As(err).Entry.Code }

// The model: what the rules say, written as plainly as possible, apart
// from the service's code. A holding is a list of lots, each earning from
// its start day; a fast redemption and a payout take the newest lots
// first; a day's interest is the tiered yearly rate ÷ 365 of the lots
// earning that day, rounded down to the coin's unit, and is a lot of its
// own earning from the next day.
type lot struct {
	units int64
	start int // first day it earns (days after day0)
}

type modelTier struct {
	upTo int64 // units; 0: the rest
	apr  *big.Rat
}

type holding struct {
	lots     []lot
	red      int64 // standard redemption waiting
	redDay   int
	auto     bool
	autoDay  int
	interest map[int]int64 // day → interest paid
}

type model struct {
	prec  int32
	tiers []modelTier
	least int64
	cap   int64
	spot  map[string]int64
	hold  map[string]*holding
}

func (m *model) h(uid string) *holding {
	if m.hold[uid] == nil {
		m.hold[uid] = &holding{interest: map[int]int64{}, autoDay: -1 << 20}
	}
	return m.hold[uid]
}

func (h *holding) total() int64 {
	var n int64
	for _, l := range h.lots {
		n += l.units
	}
	return n
}

// take removes units from the newest lots.
func (h *holding) take(units int64) {
	for units > 0 {
		last := &h.lots[len(h.lots)-1]
		t := min(units, last.units)
		last.units -= t
		units -= t
		if last.units == 0 {
			h.lots = h.lots[:len(h.lots)-1]
		}
	}
}

// interestOn is the formula: Σ tier slice × APR, ÷ 365, rounded down.
func (m *model) interestOn(balance int64) int64 {
	sum, from := new(big.Rat), int64(0)
	for _, t := range m.tiers {
		to := balance
		if t.upTo > 0 && t.upTo < balance {
			to = t.upTo
		}
		if to > from {
			sum.Add(sum, new(big.Rat).Mul(new(big.Rat).SetInt64(to-from), t.apr))
			from = to
		}
	}
	sum.Quo(sum, big.NewRat(365, 1))
	return new(big.Int).Quo(sum.Num(), sum.Denom()).Int64()
}

// endDay settles day d of every holding.
func (m *model) endDay(d int) {
	for uid, h := range m.hold {
		var earning int64
		for _, l := range h.lots {
			if l.start <= d {
				earning += l.units
			}
		}
		in := m.interestOn(earning)
		h.interest[d] = in
		if in > 0 {
			h.lots = append(h.lots, lot{units: in, start: d + 1})
		}
		if h.red > 0 && h.redDay <= d {
			h.take(h.red)
			m.spot[uid] += h.red
			h.red = 0
		}
	}
}

// TestSavingsDaysMatchFormula runs the USDT product (two tiers) through 75
// simulated days of random subscriptions, fast and standard redemptions,
// auto-subscribe, days the run is late or skipped, and checks every day's
// interest payment of every user against the formula, the balances
// against the model, and the books, on both spot implementations.
func TestSavingsDaysMatchFormula(t *testing.T) {
	for _, withEngine := range []bool{true, false} {
		t.Run(fmt.Sprintf("engine=%v", withEngine), func(t *testing.T) {
			e := newEnv(t, withEngine)
			pr, err := e.svc.loadProduct(ctx, "usdt")
			if err != nil {
				t.Fatal(err)
			}
			m := &model{prec: pr.coin.Precision, spot: map[string]int64{}, hold: map[string]*holding{},
				tiers: []modelTier{{upTo: 10_000_000_000, apr: big.NewRat(65, 1000)}, {apr: big.NewRat(3, 100)}}, least: 1_000_000}
			cap, _ := units(pr.MaxPerUser, m.prec)
			m.cap = cap
			users := []string{"10000001", "10000002", "10000003", "10000004"}
			for i, u := range users {
				amount := []string{"50000", "8000", "250000", "1200"}[i]
				e.deposit(t, u, "USDT", amount)
				m.spot[u], _ = units(dec(amount), m.prec)
			}
			rng := rand.New(rand.NewPCG(7, 11))
			const days = 75
			settledThrough := -1
			passDays := func(today int) {
				for settledThrough < today-1 {
					settledThrough++
					m.endDay(settledThrough)
				}
			}
			for d := 0; d < days; d++ {
				// The run: most days in the first hour, some late, some skipped.
				runHour := -1
				switch r := rng.IntN(10); {
				case r < 6:
					runHour = 0
				case r < 8:
					runHour = 13
				}
				ops := rng.IntN(4)
				for hour := 0; hour < 24; hour++ {
					if hour == runHour {
						e.at(d, hour)
						passDays(d)
						// Auto-subscribe sweeps after the settlement.
						for _, u := range users {
							h := m.h(u)
							if h.auto && h.autoDay < d-1 {
								left := m.cap - h.total()
								x := min(m.spot[u], left)
								if x > 0 && x >= m.least {
									m.spot[u] -= x
									h.lots = append(h.lots, lot{units: x, start: d + 1})
								}
								h.autoDay = d - 1
							}
						}
						if _, err := e.svc.RunDue(ctx); err != nil {
							t.Fatalf("day %d: run: %v", d, err)
						}
					}
					if ops == 0 || rng.IntN(8) != 0 {
						continue
					}
					ops--
					e.at(d, hour)
					u := users[rng.IntN(len(users))]
					h := m.h(u)
					switch k := rng.IntN(10); {
					case k < 5: // subscribe
						x := int64(rng.IntN(int(min(m.spot[u], 30_000_000_000)+1)))/1000*1000 + 1_000_000
						_, err := e.svc.Subscribe(ctx, u, SubscribeInput{Product: "usdt", Coin: "USDT", Amount: fixed(x, m.prec)})
						passDays(d)
						switch {
						case x > m.spot[u]:
							mustCode(t, err, apperr.CodeWalletInsufficient)
						case x > m.cap-h.total():
							mustCode(t, err, apperr.CodeEarnAboveCap)
						case err != nil:
							t.Fatalf("day %d: subscribe %d: %v", d, x, err)
						default:
							m.spot[u] -= x
							h.lots = append(h.lots, lot{units: x, start: d + 1})
						}
					case k < 7, k < 9: // fast or standard redemption
						passDays(d)
						can := h.total() - h.red
						if can <= 0 {
							continue
						}
						x := int64(rng.IntN(int(can))) + 1
						typ := RedeemFast
						if k >= 7 {
							typ = RedeemStandard
						}
						r, err := e.svc.Redeem(ctx, u, RedeemInput{Product: "usdt", Amount: fixed(x, m.prec), Type: typ})
						if err != nil {
							t.Fatalf("day %d: redeem %s %d of %d: %v", d, typ, x, can, err)
						}
						if typ == RedeemFast {
							h.take(x)
							m.spot[u] += x
						} else {
							h.red += x
							h.redDay = d
							if r.ArriveDate != DayString(DayOf(day0)+int64(d)+1) {
								t.Fatalf("standard redemption arrives %s", r.ArriveDate)
							}
						}
					default: // auto-subscribe on or off
						on := !h.auto
						if err := e.svc.SetAuto(ctx, u, "usdt", "USDT", on); err != nil {
							t.Fatal(err)
						}
						passDays(d)
						h.auto = on
						h.autoDay = d - 1
					}
				}
			}
			// A last run settles the last day.
			e.at(days, 1)
			passDays(days)
			for _, u := range users {
				h := m.h(u)
				if h.auto && h.autoDay < days-1 {
					x := min(m.spot[u], m.cap-h.total())
					if x > 0 && x >= m.least {
						m.spot[u] -= x
						h.lots = append(h.lots, lot{units: x, start: days + 1})
					}
				}
			}
			if _, err := e.svc.RunDue(ctx); err != nil {
				t.Fatal(err)
			}
			paid := 0
			for _, u := range users {
				h := m.h(u)
				got := map[int]int64{}
				it := store.Query{PK: logPK(u)}
				for {
					page, err := e.st.Query(ctx, it)
					if err != nil {
						t.Fatal(err)
					}
					for _, r := range page.Items {
						if r.Str("type") != LogInterest {
							continue
						}
						d := int(r.Int("day") - DayOf(day0))
						if _, dup := got[d]; dup {
							t.Fatalf("user %s: day %d paid twice", u, d)
						}
						x, _ := units(dec(r.Str("amount")), m.prec)
						got[d] = x
					}
					if page.Cursor == "" {
						break
					}
					it.Cursor = page.Cursor
				}
				for d := 0; d < days; d++ {
					if got[d] != h.interest[d] {

						t.Fatalf("user %s day %d: paid %d, the formula says %d", u, d, got[d], h.interest[d])
					}
					if h.interest[d] > 0 {
						paid++
					}
				}
				earn := e.balance(t, u, ledger.Earn, "USDT")
				if want := fixed(h.total()-h.red, m.prec); earn.Available.StringFixed(m.prec) != want {
					t.Fatalf("user %s: earn available %s, model %s", u, earn.Available, want)
				}
				if want := fixed(h.red, m.prec); earn.Frozen.StringFixed(m.prec) != want {
					t.Fatalf("user %s: earn frozen %s, model %s", u, earn.Frozen, want)
				}
				spot := e.balance(t, u, ledger.Spot, "USDT")
				if want := fixed(m.spot[u], m.prec); spot.Available.StringFixed(m.prec) != want {
					t.Fatalf("user %s: spot %s, model %s", u, spot.Available, want)
				}
			}
			if paid < 100 {
				t.Fatalf("only %d interest payments: the simulation hardly ran", paid)
			}
			e.audit(t)
			t.Logf("%d interest payments, every one as the formula says", paid)
		})
	}
}

// TestSavingsRefusals: bad input is refused with its code, nothing moved.
func TestSavingsRefusals(t *testing.T) {
	e := newEnv(t, true)
	const u, other = "10000001", "10000002"
	e.deposit(t, u, "USDT", "2000000")
	e.deposit(t, u, "BTC", "1")
	sub := func(uid, prod, coin, amount string) error {
		_, err := e.svc.Subscribe(ctx, uid, SubscribeInput{Product: prod, Coin: coin, Amount: amount})
		return err
	}
	mustCode(t, sub(u, "nope", "USDT", "10"), apperr.CodeEarnUnknownProduct)
	mustCode(t, sub(u, "usdt", "BTC", "10"), apperr.CodeEarnCoinMismatch)
	mustCode(t, sub(u, "usdt", "USDT", "0.5"), apperr.CodeEarnBelowMin)
	mustCode(t, sub(u, "usdt", "USDT", "1.0000001"), apperr.CodeWalletAmountPrecision)
	mustCode(t, sub(u, "usdt", "USDT", "-3"), apperr.CodeWalletAmountFormat)
	mustCode(t, sub(u, "usdt", "USDT", "1000000.000001"), apperr.CodeEarnAboveCap)
	mustCode(t, sub(other, "usdt", "USDT", "10"), apperr.CodeWalletInsufficient)
	mustCode(t, sub("", "usdt", "USDT", "10"), apperr.CodeNotSignedIn)
	if err := sub(u, "usdt", "USDT", "999990"); err != nil {
		t.Fatal(err)
	}
	mustCode(t, sub(u, "usdt", "USDT", "11"), apperr.CodeEarnAboveCap)
	red := func(uid, amount, typ string) error {
		_, err := e.svc.Redeem(ctx, uid, RedeemInput{Product: "usdt", Amount: amount, Type: typ})
		return err
	}
	mustCode(t, red(u, "999990.000001", RedeemFast), apperr.CodeEarnRedeemTooMuch)
	mustCode(t, red(u, "1", "slow"), apperr.CodeEarnRedeemType)
	// Another user reaches nobody's position but their own.
	mustCode(t, red(other, "1", RedeemFast), apperr.CodeEarnNothingHeld)
	if err := red(u, "999000", RedeemStandard); err != nil {
		t.Fatal(err)
	}
	mustCode(t, red(u, "991", RedeemFast), apperr.CodeEarnRedeemTooMuch)
	// Closed products take no subscription but give money back.
	p, _ := e.svc.SavingsProduct(ctx, "btc")
	p.Open = false
	if err := e.svc.PutSavingsProduct(ctx, p); err != nil {
		t.Fatal(err)
	}
	mustCode(t, sub(u, "btc", "BTC", "0.5"), apperr.CodeEarnClosed)
	if b := e.balance(t, other, ledger.Spot, "USDT"); !b.Available.IsZero() {
		t.Fatalf("other user's spot %s", b.Available)
	}
	if b := e.balance(t, u, ledger.Spot, "USDT"); !b.Available.Equal(dec("1000010")) {
		t.Fatalf("spot after the refusals: %s", b.Available)
	}
	e.audit(t)
}

// TestSavingsRequestIDOnce: a retried request id subscribes once; the same
// id for another amount is refused.
func TestSavingsRequestIDOnce(t *testing.T) {
	e := newEnv(t, true)
	const u = "10000001"
	e.deposit(t, u, "USDT", "100")
	in := SubscribeInput{Product: "usdt", Amount: "40", RequestID: "abc-1"}
	r1, err := e.svc.Subscribe(ctx, u, in)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := e.svc.Subscribe(ctx, u, in)
	if err != nil || !r2.Replayed || r2.ID != r1.ID {
		t.Fatalf("retry: %+v %v", r2, err)
	}
	in.Amount = "41"
	_, err = e.svc.Subscribe(ctx, u, in)
	mustCode(t, err, apperr.CodeEarnRequestReused)
	if b := e.balance(t, u, ledger.Earn, "USDT"); !b.Available.Equal(dec("40")) {
		t.Fatalf("earn %s", b.Available)
	}
}

// TestSavingsResume: a subscription and a fast redemption whose process
// stopped between their steps are finished by Resume, once.
func TestSavingsResume(t *testing.T) {
	e := newEnv(t, true)
	const u = "10000001"
	e.deposit(t, u, "USDT", "100")
	pr, _ := e.svc.loadProduct(ctx, "usdt")
	// A subscription whose record was written, nothing else.
	o := &op{id: "s-test", uid: u, prod: "usdt", coin: "USDT", kind: opSubscribe, amount: 30_000_000, status: opPending,
		ctime: e.clk.Now().UnixMilli()}
	if err := e.st.Put(ctx, o.item(pr.coin.Precision), store.ItemNotExists()); err != nil {
		t.Fatal(err)
	}
	if n, err := e.svc.Resume(ctx); n != 0 || err != nil {
		t.Fatalf("a young op is left to its call: %d %v", n, err)
	}
	e.clk.Set(e.clk.Now().Add(ResumeAge + time.Second))
	if n, err := e.svc.Resume(ctx); n != 1 || err != nil {
		t.Fatalf("resume: %d %v", n, err)
	}
	if n, err := e.svc.Resume(ctx); n != 0 || err != nil {
		t.Fatalf("again: %d %v", n, err)
	}
	if b := e.balance(t, u, ledger.Earn, "USDT"); !b.Available.Equal(dec("30")) {
		t.Fatalf("earn %s", b.Available)
	}
	if b := e.balance(t, u, ledger.Spot, "USDT"); !b.Available.Equal(dec("70")) {
		t.Fatalf("spot %s", b.Available)
	}
	e.audit(t)
}

// TestSavingsStandardRedemption: a standard redemption earns its day and
// arrives with the settlement; a fast one loses the day.
func TestSavingsStandardRedemption(t *testing.T) {
	e := newEnv(t, true)
	const a, b = "10000001", "10000002"
	for _, u := range []string{a, b} {
		e.deposit(t, u, "USDT", "3650")
		if _, err := e.svc.Subscribe(ctx, u, SubscribeInput{Product: "usdt", Amount: "3650"}); err != nil {
			t.Fatal(err)
		}
	}
	e.at(1, 12) // day 1 earns 3650 × 6.5% / 365 = 0.65
	if _, err := e.svc.Redeem(ctx, a, RedeemInput{Product: "usdt", Amount: "3650", Type: RedeemStandard}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Redeem(ctx, b, RedeemInput{Product: "usdt", Amount: "3650", Type: RedeemFast}); err != nil {
		t.Fatal(err)
	}
	if s := e.balance(t, b, ledger.Spot, "USDT"); !s.Available.Equal(dec("3650")) {
		t.Fatalf("fast: spot %s", s.Available)
	}
	e.at(2, 0)
	if _, err := e.svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	if s := e.balance(t, a, ledger.Spot, "USDT"); !s.Available.Equal(dec("3650")) {
		t.Fatalf("standard: spot %s", s.Available)
	}
	// The day's interest stays in savings (0.65), the fast one earned none.
	if s := e.balance(t, a, ledger.Earn, "USDT"); !s.Available.Equal(dec("0.65")) || !s.Frozen.IsZero() {
		t.Fatalf("standard: earn %s/%s", s.Available, s.Frozen)
	}
	if s := e.balance(t, b, ledger.Earn, "USDT"); !s.Available.IsZero() {
		t.Fatalf("fast: earn %s", s.Available)
	}
	hs, err := e.svc.Holdings(ctx, a, LangEN)
	if err != nil {
		t.Fatal(err)
	}
	if hs[0].ID != "usdt" || hs[0].TotalInterest != "0.650000" || hs[0].YesterdayInt != "0.650000" || hs[0].Redeeming != "0.000000" ||
		hs[0].Today != DayString(DayOf(day0)+2) || hs[0].StandardArriveDate != DayString(DayOf(day0)+3) {
		t.Fatalf("holding %+v", hs[0])
	}
	e.audit(t)
}

func TestDayOf(t *testing.T) {
	for _, c := range []struct {
		at   string
		want string
	}{{"2026-03-02T00:00:00Z", "2026-03-02"}, {"2026-03-02T23:59:59Z", "2026-03-02"}, {"1969-12-31T23:00:00Z", "1969-12-31"}} {
		tm, _ := time.Parse(time.RFC3339, c.at)
		if got := DayString(DayOf(tm)); got != c.want {
			t.Fatalf("%s: %s", c.at, got)
		}
	}
}
