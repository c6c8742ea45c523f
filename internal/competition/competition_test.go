package competition

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

var ctx = context.Background()

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// fakes stand for the identity, futures and wallet services: the
// service reads users, margin balances and transfers only through them.
type fakes struct {
	mu        sync.Mutex
	users     map[string]User
	opened    map[string]bool
	balance   map[string]decimal.Decimal
	transfers map[string][]Transfer
}

func (f *fakes) CompetitionUser(_ context.Context, uid string) (User, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.users[uid], nil
}

func (f *fakes) MarginBalance(_ context.Context, uid, coin string) (decimal.Decimal, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if coin != "USDT" {
		return decimal.Zero, errors.New("coin")
	}
	return f.balance[uid], nil
}

func (f *fakes) Opened(_ context.Context, uid string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.opened[uid], nil
}

func (f *fakes) FuturesTransfers(_ context.Context, uid, _ string, from, to int64) ([]Transfer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Transfer
	for _, t := range f.transfers[uid] {
		if t.At >= from && t.At <= to {
			out = append(out, t)
		}
	}
	return out, nil
}

// trader is a user meeting every rule, with a margin balance.
func (f *fakes) trader(uid, nick, balance string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users[uid] = User{Nick: nick, KYCLevel: 1, Mobile: true}
	f.opened[uid] = true
	f.balance[uid] = dec(balance)
}

func (f *fakes) setBalance(uid, balance string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.balance[uid] = dec(balance)
}

// transfer records a transfer and moves the balance with it.
func (f *fakes) transfer(uid string, at time.Time, amount string, in bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.transfers[uid] = append(f.transfers[uid], Transfer{At: at.UnixMilli(), Amount: dec(amount), In: in})
	if in {
		f.balance[uid] = f.balance[uid].Add(dec(amount))
	} else {
		f.balance[uid] = f.balance[uid].Sub(dec(amount))
	}
}

// countingStore counts the transactions a refresh writes.
type countingStore struct {
	store.Store
	transacts atomic.Int64
}

func (c *countingStore) Transact(ctx context.Context, ops []store.Op) error {
	c.transacts.Add(1)
	return c.Store.Transact(ctx, ops)
}

// flakyFunds pays through the store ledger; failAfter > 0 makes that
// many credits go through and the next ones fail (a crash part-way).
type flakyFunds struct {
	spotfunds.Funds
	failAfter atomic.Int64
	credits   atomic.Int64
}

func (f *flakyFunds) Credit(ctx context.Context, m spotfunds.Move) error {
	if n := f.failAfter.Load(); n > 0 && f.credits.Load() >= n {
		return errors.New("engine unreachable")
	}
	f.credits.Add(1)
	return f.Funds.Credit(ctx, m)
}

type env struct {
	st    *countingStore
	led   *ledger.Ledger
	f     *fakes
	funds *flakyFunds
	clock *clock
	svc   *Service
}

var (
	start = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	end   = start.Add(10 * 24 * time.Hour)
)

func newEnv(t *testing.T) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	cs := &countingStore{Store: st}
	c := &clock{t: start.Add(-24 * time.Hour)}
	led := ledger.New(st, c.Now)
	f := &fakes{users: map[string]User{}, opened: map[string]bool{}, balance: map[string]decimal.Decimal{}, transfers: map[string][]Transfer{}}
	funds := &flakyFunds{Funds: spotfunds.Ledger{Led: led, Store: st}}
	svc := New(Options{Store: cs, Users: f, Futures: f, Transfers: f, Funds: funds, Now: c.Now, Log: zerolog.Nop(), Concurrency: 3})
	return &env{st: cs, led: led, f: f, funds: funds, clock: c, svc: svc}
}

func definition(id string) Definition {
	return Definition{ID: id, Names: map[string]string{LangEN: "December futures cup", LangMN: "12-р сарын фьючерсийн тэмцээн"},
		Descriptions: map[string]string{LangEN: "Trade USDT perpetuals.", LangMN: "USDT мөнхийн гэрээгээр арилжаална."},
		Start:        start.UnixMilli(), End: end.UnixMilli(), Coin: "USDT",
		Prizes: []Prize{{From: 3, To: 10, Amount: dec("100")}, {From: 1, To: 1, Amount: dec("1000")}, {From: 2, To: 2, Amount: dec("500")}},
		Rules:  DefaultRules(dec("100"))}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Entry.Code != code {
		t.Fatalf("want code %s, got %v", code, err)
	}
}

func (e *env) create(t *testing.T, id string) Competition {
	t.Helper()
	c, created, err := e.svc.Put(ctx, definition(id))
	if err != nil || !created {
		t.Fatalf("create %s: %v %v", id, created, err)
	}
	return c
}

func (e *env) spot(t *testing.T, uid string) decimal.Decimal {
	t.Helper()
	b, err := e.led.Balance(ctx, ledger.UserAccount(uid, ledger.Spot), "USDT")
	if err != nil {
		t.Fatal(err)
	}
	return b.Total()
}

// The operator's definitions: checked, created, changed freely before the
// start and only in their names and descriptions after it, listed; the
// current competition is the running one, else the next, else the last.
func TestDefinitions(t *testing.T) {
	e := newEnv(t)
	bad := func(mut func(*Definition)) {
		t.Helper()
		d := definition("bad")
		mut(&d)
		_, _, err := e.svc.Put(ctx, d)
		wantCode(t, err, apperr.CodeCompetitionInvalid)
	}
	bad(func(d *Definition) { d.ID = "no spaces" })
	bad(func(d *Definition) { delete(d.Names, LangMN) })
	bad(func(d *Definition) { d.Names["zh_CN"] = "x" })
	bad(func(d *Definition) { d.End = d.Start })
	bad(func(d *Definition) { d.Coin = "BTC" })
	bad(func(d *Definition) { d.Prizes = nil })
	bad(func(d *Definition) { d.Prizes = append(d.Prizes, Prize{From: 10, To: 12, Amount: dec("1")}) })
	bad(func(d *Definition) { d.Prizes[0].Amount = dec("0.000000001") })
	bad(func(d *Definition) { d.Prizes[0].To = MaxPrizeRank + 1 })
	bad(func(d *Definition) { d.Rules.MinBalance = dec("-1") })
	bad(func(d *Definition) { d.Rules.KYCLevel = 2 })
	bad(func(d *Definition) {
		d.Start, d.End = start.Add(-72*time.Hour).UnixMilli(), start.Add(-48*time.Hour).UnixMilli()
	})
	if _, err := e.svc.Get(ctx, "bad"); !errors.Is(err, apperr.New(apperr.CodeCompetitionUnknown)) {
		t.Fatalf("a refused definition was stored: %v", err)
	}

	c := e.create(t, "dec")
	if len(c.Prizes) != 3 || c.Prizes[0].From != 1 || !c.PrizePool().Equal(dec("2300")) || c.MaxRank() != 10 {
		t.Fatalf("prizes %+v pool %s", c.Prizes, c.PrizePool())
	}
	if p, ok := c.PrizeFor(7); !ok || !p.Equal(dec("100")) {
		t.Fatalf("rank 7 wins %s %v", p, ok)
	}
	if _, ok := c.PrizeFor(11); ok {
		t.Fatal("rank 11 wins")
	}
	// Before the start anything changes.
	d := definition("dec")
	d.Prizes[1].Amount = dec("2000")
	d.Start = start.Add(time.Hour).UnixMilli()
	if c, created, err := e.svc.Put(ctx, d); err != nil || created || !c.PrizePool().Equal(dec("3300")) || c.Start != d.Start {
		t.Fatalf("update %+v %v %v", c, created, err)
	}
	e.clock.Set(start.Add(2 * time.Hour))
	d.Prizes[1].Amount = dec("3000")
	_, _, err := e.svc.Put(ctx, d)
	wantCode(t, err, apperr.CodeCompetitionLocked)
	d.Prizes[1].Amount = dec("2000")
	d.Names[LangEN] = "December cup"
	if c, _, err := e.svc.Put(ctx, d); err != nil || c.Name(LangEN) != "December cup" || c.Name("zh_CN") != "December cup" ||
		c.Name(LangMN) != "12-р сарын фьючерсийн тэмцээн" {
		t.Fatalf("rename %+v %v", c, err)
	}
	// Current: the running one; then the next upcoming; then the last ended.
	next := definition("jan")
	next.Start, next.End = end.Add(24*time.Hour).UnixMilli(), end.Add(240*time.Hour).UnixMilli()
	if _, _, err := e.svc.Put(ctx, next); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		at   time.Time
		want string
	}{{start.Add(3 * time.Hour), "dec"}, {end.Add(time.Hour), "jan"}, {end.Add(300 * time.Hour), "jan"}} {
		e.clock.Set(tc.at)
		cur, ok, err := e.svc.Current(ctx)
		if err != nil || !ok || cur.ID != tc.want {
			t.Fatalf("at %s current %s %v %v, want %s", tc.at, cur.ID, ok, err, tc.want)
		}
	}
	if st := (Competition{Definition: next}).State(end.Add(300 * time.Hour)); st != StateEnded {
		t.Fatalf("state %s", st)
	}
	list, err := e.svc.List(ctx)
	if err != nil || len(list) != 2 || list[0].ID != "dec" || list[1].ID != "jan" {
		t.Fatalf("list %+v %v", list, err)
	}
}

// Joining: not before the start, not after the end, each rule its code;
// the participant is recorded with the margin balance as its initial
// equity; joining again changes nothing.
func TestJoinRules(t *testing.T) {
	e := newEnv(t)
	e.create(t, "dec")
	e.f.trader("1", "alice", "250")
	_, err := e.svc.Join(ctx, "dec", "1")
	wantCode(t, err, apperr.CodeCompetitionNotStarted)
	_, err = e.svc.Join(ctx, "nope", "1")
	wantCode(t, err, apperr.CodeCompetitionUnknown)
	_, err = e.svc.Join(ctx, "dec", "")
	wantCode(t, err, apperr.CodeNotSignedIn)
	e.clock.Set(start.Add(time.Hour))

	e.f.users["2"] = User{Nick: "bob", KYCLevel: 0, Mobile: false}
	e.f.balance["2"] = dec("99.99")
	cond, err := e.svc.Condition(ctx, "dec", "2")
	if err != nil || cond.KYC != (RuleCheck{true, false}) || cond.Mobile != (RuleCheck{true, false}) ||
		cond.FuturesAccount != (RuleCheck{true, false}) || cond.Funds.Met || cond.Funds.Min != "100" ||
		cond.Funds.Balance != "99.99" || cond.Funds.Coin != "USDT" || cond.Joined || cond.CanJoin || cond.State != StateRunning {
		t.Fatalf("condition %+v %v", cond, err)
	}
	_, err = e.svc.Join(ctx, "dec", "2")
	wantCode(t, err, apperr.CodeCompetitionKYC)
	e.f.users["2"] = User{Nick: "bob", KYCLevel: 1}
	_, err = e.svc.Join(ctx, "dec", "2")
	wantCode(t, err, apperr.CodeCompetitionMobile)
	e.f.users["2"] = User{Nick: "bob", KYCLevel: 1, Mobile: true}
	_, err = e.svc.Join(ctx, "dec", "2")
	wantCode(t, err, apperr.CodeCompetitionFuturesAccount)
	e.f.opened["2"] = true
	_, err = e.svc.Join(ctx, "dec", "2")
	wantCode(t, err, apperr.CodeCompetitionFunds)
	if msg := apperr.As(err).Message(apperr.LangEN); msg != "Your futures margin balance must be at least 100 USDT to join the competition" {
		t.Fatalf("message %q", msg)
	}

	cond, err = e.svc.Condition(ctx, "dec", "1")
	if err != nil || !cond.CanJoin || !cond.KYC.Met || !cond.Funds.Met || cond.Funds.Balance != "250" {
		t.Fatalf("condition %+v %v", cond, err)
	}
	r, err := e.svc.Join(ctx, "dec", "1")
	if err != nil || !r.Joined || r.InitialEquity != "250.00" || r.JoinedAt != start.Add(time.Hour).UnixMilli() || r.Rank != 0 || r.ROI != "" {
		t.Fatalf("join %+v %v", r, err)
	}
	// Again, with another balance and rules no longer met: the first join stands.
	e.f.setBalance("1", "5")
	e.f.users["1"] = User{Nick: "alice"}
	again, err := e.svc.Join(ctx, "dec", "1")
	if err != nil || again != r {
		t.Fatalf("join again %+v %v", again, err)
	}
	if cond, err := e.svc.Condition(ctx, "dec", "1"); err != nil || !cond.Joined || cond.CanJoin {
		t.Fatalf("condition after joining %+v %v", cond, err)
	}
	c, err := e.svc.Get(ctx, "dec")
	if err != nil || c.Participants != 1 {
		t.Fatalf("participants %d %v", c.Participants, err)
	}
	// A rule not asked is met.
	d := definition("open")
	d.Rules = Rules{}
	if _, _, err := e.svc.Put(ctx, d); err != nil {
		t.Fatal(err)
	}
	e.f.users["3"] = User{}
	if r, err := e.svc.Join(ctx, "open", "3"); err != nil || r.InitialEquity != "0.00" || r.NickName != "User-3" {
		t.Fatalf("join without rules %+v %v", r, err)
	}
	e.clock.Set(end)
	_, err = e.svc.Join(ctx, "dec", "2")
	wantCode(t, err, apperr.CodeCompetitionEnded)
}

// The ranking: profit leaves transfers out, ROI weighs them by the time
// left; those with nothing at stake come last; a refresh with nothing
// changed writes nothing; the pages read the ranks.
func TestRefreshRanking(t *testing.T) {
	e := newEnv(t)
	e.create(t, "dec")
	e.clock.Set(start)
	for uid, nick := range map[string]string{"1": "alice", "2": "bob", "3": "carol", "4": "dave"} {
		e.f.trader(uid, nick, "1000")
		if _, err := e.svc.Join(ctx, "dec", uid); err != nil {
			t.Fatal(err)
		}
	}
	half := start.Add(5 * 24 * time.Hour)
	e.clock.Set(half)
	// alice trades 1000 into 1100: 10 %.
	e.f.setBalance("1", "1100")
	// bob brings 9000 in half-way and ends on 10,150: 150 of profit on
	// 1000 + 4500, 2.73 % — his deposit bought no rank.
	e.f.transfer("2", half, "9000", true)
	e.f.setBalance("2", "10150")
	// carol takes 500 out half-way and ends on 560: 60 of profit on 750, 8 %.
	e.f.transfer("3", half, "500", false)
	e.f.setBalance("3", "560")
	// dave takes everything out at once: nothing at stake, ranked last.
	e.f.transfer("4", start, "1000", false)
	e.f.setBalance("4", "0")

	now := half.Add(time.Minute)
	e.clock.Set(now)
	if err := e.svc.Refresh(ctx, now); err != nil {
		t.Fatal(err)
	}
	top, err := e.svc.Top(ctx, "dec", 10)
	if err != nil || len(top) != 4 {
		t.Fatalf("top %+v %v", top, err)
	}
	want := []RankRow{
		{Rank: 1, NickName: "a***e", ROI: "10.00", Profit: "100.00", Prize: "1000"},
		{Rank: 2, NickName: "c***l", ROI: "8.00", Profit: "60.00", Prize: "500"},
		{Rank: 3, NickName: "b***b", ROI: "2.73", Profit: "150.00", Prize: "100"},
		{Rank: 4, NickName: "d***e", ROI: "", Profit: "0.00", Prize: ""},
	}
	for i := range want {
		if top[i] != want[i] {
			t.Fatalf("rank %d: %+v, want %+v", i+1, top[i], want[i])
		}
	}
	u, err := e.svc.UserRank(ctx, "dec", "2")
	if err != nil || u.Rank != 3 || u.ROI != "2.73" || u.Profit != "150.00" || u.Equity != "10150.00" || u.InitialEquity != "1000.00" ||
		u.NetTransferIn != "9000.00" || u.Prize != "100" || u.PrizePaid || u.RefreshedAt != now.UnixMilli() {
		t.Fatalf("user rank %+v %v", u, err)
	}
	if u, err := e.svc.UserRank(ctx, "dec", "99"); err != nil || u.Joined {
		t.Fatalf("not joined %+v %v", u, err)
	}
	page, err := e.svc.Ranks(ctx, "dec", 2, 3)
	if err != nil || page.Count != 4 || len(page.List) != 1 || page.List[0].Rank != 4 || page.RefreshedAt != now.UnixMilli() {
		t.Fatalf("page 2 %+v %v", page, err)
	}
	if page, err := e.svc.Ranks(ctx, "dec", 3, 3); err != nil || len(page.List) != 0 {
		t.Fatalf("page 3 %+v %v", page, err)
	}
	if _, err := e.svc.Top(ctx, "dec", 101); !errors.Is(err, apperr.New(apperr.CodeParam)) {
		t.Fatalf("limit 101: %v", err)
	}

	// Nothing changed: the next refresh writes no rank and no participant.
	before := e.st.transacts.Load()
	later := now.Add(time.Minute)
	if err := e.svc.Refresh(ctx, later); err != nil {
		t.Fatal(err)
	}
	if n := e.st.transacts.Load() - before; n != 0 {
		t.Fatalf("an idle refresh wrote %d transactions", n)
	}
	if c, _ := e.svc.Get(ctx, "dec"); c.RefreshedAt != later.UnixMilli() || c.Ranked != 4 || c.Participants != 4 {
		t.Fatalf("competition after refresh %+v", c)
	}
	// A change moves the ranks, and only what moved is written.
	e.f.setBalance("2", "10700") // 700 on 5500: 12.73 %
	if err := e.svc.Refresh(ctx, later.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	top, _ = e.svc.Top(ctx, "dec", 2)
	if len(top) != 2 || top[0].NickName != "b***b" || top[0].ROI != "12.73" || top[1].NickName != "a***e" {
		t.Fatalf("after bob's gain %+v", top)
	}
}

// The prizes: the first refresh after the end fixes the winners and pays
// them from the treasury into their spot accounts, once; a settle that
// stopped part-way is finished by the next without paying anyone twice;
// a settled competition answers so and pays nothing; the audit is clean.
func TestSettlementPaysOnce(t *testing.T) {
	e := newEnv(t)
	e.create(t, "dec")
	e.clock.Set(start)
	// Twelve traders: 1 gains most ... 11 least; 12 takes everything out.
	uids := []string{"u01", "u02", "u03", "u04", "u05", "u06", "u07", "u08", "u09", "u10", "u11", "u12"}
	for _, uid := range uids {
		e.f.trader(uid, "nick-"+uid, "1000")
		if _, err := e.svc.Join(ctx, "dec", uid); err != nil {
			t.Fatal(err)
		}
	}
	for i, uid := range uids[:11] {
		e.f.setBalance(uid, decimal.NewFromInt(int64(2000-100*i)).String())
	}
	e.f.transfer("u12", start, "1000", false)
	_, err := e.svc.Settle(ctx, "dec")
	wantCode(t, err, apperr.CodeCompetitionNotEnded)

	// The end passes; the first credit goes through, then the engine is gone.
	after := end.Add(30 * time.Second)
	e.clock.Set(after)
	e.funds.failAfter.Store(1)
	if err := e.svc.Refresh(ctx, after); err == nil {
		t.Fatal("a refresh whose credits failed answered nil")
	}
	c, _ := e.svc.Get(ctx, "dec")
	if c.FinalAt != after.UnixMilli() || c.SettledAt != 0 || c.State(after) != StateEnded {
		t.Fatalf("after the failed settle %+v", c)
	}
	if got := e.spot(t, "u01"); !got.Equal(dec("1000")) {
		t.Fatalf("u01 got %s", got)
	}
	// The ranking is final: later trading moves nothing.
	e.f.setBalance("u11", "999999")
	later := after.Add(time.Minute)
	e.clock.Set(later)
	e.funds.failAfter.Store(0)
	st, err := e.svc.Settle(ctx, "dec")
	if err != nil || len(st.Winners) != 10 || !st.Total.Equal(dec("2300")) || st.FinalAt != after.UnixMilli() || st.SettledAt != later.UnixMilli() {
		t.Fatalf("settle %+v %v", st, err)
	}
	for i, uid := range uids {
		want := map[int]string{0: "1000", 1: "500"}[i]
		if want == "" {
			want = "100"
		}
		if i >= 10 {
			want = "0"
		}
		if got := e.spot(t, uid); !got.Equal(dec(want)) {
			t.Fatalf("%s (rank %d) got %s, want %s", uid, i+1, got, want)
		}
	}
	if b, _ := e.led.Balance(ctx, ledger.TreasuryAccount("competition"), "USDT"); !b.Available.Equal(dec("-2300")) {
		t.Fatalf("treasury %+v", b)
	}
	// Again: settled, nothing paid; the refresher leaves it alone.
	credits := e.funds.credits.Load()
	_, err = e.svc.Settle(ctx, "dec")
	wantCode(t, err, apperr.CodeCompetitionSettled)
	if err := e.svc.Refresh(ctx, later.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if n := e.funds.credits.Load(); n != credits {
		t.Fatalf("%d more credits after settling", n-credits)
	}
	u, err := e.svc.UserRank(ctx, "dec", "u02")
	if err != nil || u.Rank != 2 || u.Prize != "500" || !u.PrizePaid {
		t.Fatalf("winner's rank %+v %v", u, err)
	}
	if u, _ := e.svc.UserRank(ctx, "dec", "u11"); u.Rank != 11 || u.Prize != "" || u.Equity != "1000.00" {
		t.Fatalf("after the end %+v", u)
	}
	if u, _ := e.svc.UserRank(ctx, "dec", "u12"); u.Rank != 12 || u.ROI != "" {
		t.Fatalf("nothing at stake %+v", u)
	}
	c, _ = e.svc.Get(ctx, "dec")
	if c.State(later) != StateSettled || !c.Paid.Equal(dec("2300")) {
		t.Fatalf("settled %+v", c)
	}
	if _, err := e.svc.Join(ctx, "dec", "u99"); !errors.Is(err, apperr.New(apperr.CodeCompetitionEnded)) {
		t.Fatalf("join after settling: %v", err)
	}
	_, _, err = e.svc.Put(ctx, definition("dec"))
	wantCode(t, err, apperr.CodeCompetitionSettled)
	rep, err := e.led.Audit(ctx)
	if err != nil || !rep.Clean() {
		t.Fatalf("audit %+v %v", rep, err)
	}
}

// Fewer participants than prizes: only ranks held by a participant with
// an ROI win; two settles at once pay each winner once.
func TestConcurrentSettles(t *testing.T) {
	e := newEnv(t)
	e.create(t, "dec")
	e.clock.Set(start)
	for _, uid := range []string{"a", "b", "c"} {
		e.f.trader(uid, uid, "500")
		if _, err := e.svc.Join(ctx, "dec", uid); err != nil {
			t.Fatal(err)
		}
	}
	e.f.setBalance("a", "600")
	e.f.transfer("c", start, "500", false)
	e.clock.Set(end)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = e.svc.Settle(ctx, "dec")
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if !errors.Is(err, apperr.New(apperr.CodeCompetitionSettled)) {
			t.Fatalf("settle: %v", err)
		}
	}
	if ok == 0 {
		t.Fatal("no settle succeeded")
	}
	for uid, want := range map[string]string{"a": "1000", "b": "500", "c": "0"} {
		if got := e.spot(t, uid); !got.Equal(dec(want)) {
			t.Fatalf("%s got %s, want %s", uid, got, want)
		}
	}
	if rep, err := e.led.Audit(ctx); err != nil || !rep.Clean() {
		t.Fatalf("audit %+v %v", rep, err)
	}
}

// The final marker closes the ranking: a refresh that began before it
// (here: one run after it, as a slow one would write) writes nothing, a
// second final refresh changes nothing, and a join racing the end is
// refused.
func TestFinalMarkerFences(t *testing.T) {
	e := newEnv(t)
	e.create(t, "dec")
	e.clock.Set(start)
	for _, uid := range []string{"a", "b"} {
		e.f.trader(uid, uid+"-nick", "1000")
		if _, err := e.svc.Join(ctx, "dec", uid); err != nil {
			t.Fatal(err)
		}
	}
	e.f.setBalance("a", "1200")
	c, _ := e.svc.Get(ctx, "dec")
	if err := e.svc.finalize(ctx, c, end); err != nil {
		t.Fatal(err)
	}
	at, win, ok, err := e.svc.final(ctx, "dec")
	if err != nil || !ok || at != end.UnixMilli() || len(win) != 2 || win[0].UID != "a" || !win[0].Amount.Equal(dec("1000")) || win[1].UID != "b" {
		t.Fatalf("final %d %+v %v %v", at, win, ok, err)
	}
	e.f.setBalance("b", "5000")
	if err := e.svc.refresh(ctx, c, end.Add(-time.Second)); !errors.Is(err, errFenced) {
		t.Fatalf("refresh after the final marker: %v", err)
	}
	if err := e.svc.finalize(ctx, c, end.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	top, err := e.svc.Top(ctx, "dec", 5)
	if err != nil || len(top) != 2 || top[0].NickName != "a***k" || top[0].ROI != "20.00" || top[1].ROI != "0.00" {
		t.Fatalf("final ranks %+v %v", top, err)
	}
	if _, win2, _, _ := e.svc.final(ctx, "dec"); len(win2) != 2 || win2[0].UID != "a" {
		t.Fatalf("winners changed %+v", win2)
	}
	e.clock.Set(end.Add(-time.Second)) // the joiner read the competition as running
	e.f.trader("late", "late", "1000")
	_, err = e.svc.Join(ctx, "dec", "late")
	wantCode(t, err, apperr.CodeCompetitionEnded)
}
