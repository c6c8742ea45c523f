package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

func openStore(tb testing.TB) store.Store {
	tb.Helper()
	st, err := embedded.Open(tb.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = st.Close() })
	return st
}

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func mustPost(t *testing.T, l *Ledger, p Posting) Result {
	t.Helper()
	r, err := l.Post(context.Background(), p)
	if err != nil {
		t.Fatalf("post %s: %v", p.ID, err)
	}
	return r
}

func wantBalance(t *testing.T, l *Ledger, a Account, coin, avail, frozen string) {
	t.Helper()
	b, err := l.Balance(context.Background(), a, coin)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Available.Equal(d(avail)) || !b.Frozen.Equal(d(frozen)) {
		t.Fatalf("%s %s = %s/%s, want %s/%s", a, coin, b.Available, b.Frozen, avail, frozen)
	}
}

func wantClean(t *testing.T, l *Ledger) Report {
	t.Helper()
	rep, err := l.Audit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Clean() {
		var sb strings.Builder
		rep.Write(&sb)
		t.Fatalf("audit not clean:\n%s", sb.String())
	}
	return rep
}

func TestDepositHoldWithdrawTransfer(t *testing.T) {
	l := New(openStore(t), nil)
	u := UserAccount("10000001", Spot)
	chain := ChainAccount("ERC20")
	mustPost(t, l, Posting{ID: "dep:1", Reason: "deposit", Legs: []Leg{Move(chain, u, "USDT", d("100.5"))}})
	wantBalance(t, l, u, "USDT", "100.5", "0")
	wantBalance(t, l, chain, "USDT", "-100.5", "0")

	// Withdrawal: hold, then settle to the chain with a fee.
	mustPost(t, l, Posting{ID: "wd:1:hold", Reason: "withdraw_hold", Legs: []Leg{HoldLeg(u, "USDT", d("50"))}})
	wantBalance(t, l, u, "USDT", "50.5", "50")
	mustPost(t, l, Posting{ID: "wd:1:settle", Reason: "withdraw_settle", Legs: []Leg{
		{From: u, FromBucket: Frozen, To: chain, ToBucket: Available, Coin: "USDT", Amount: d("49")},
		{From: u, FromBucket: Frozen, To: FeeAccount(), ToBucket: Available, Coin: "USDT", Amount: d("1")},
	}})
	wantBalance(t, l, u, "USDT", "50.5", "0")
	wantBalance(t, l, FeeAccount(), "USDT", "1", "0")

	// Transfer spot → futures and back partially.
	fut := UserAccount("10000001", Futures)
	mustPost(t, l, Posting{ID: "tr:1", Reason: "transfer", Legs: []Leg{Move(u, fut, "USDT", d("20.123"))}})
	mustPost(t, l, Posting{ID: "tr:2", Reason: "transfer", Legs: []Leg{Move(fut, u, "USDT", d("0.123"))}})
	wantBalance(t, l, fut, "USDT", "20", "0")
	wantBalance(t, l, u, "USDT", "30.5", "0")

	rep := wantClean(t, l)
	if rep.Postings != 5 || len(rep.Coins) != 1 || !rep.Coins[0].Holdings.Equal(d("51.5")) || !rep.Coins[0].NetExternalInflow.Equal(d("51.5")) {
		t.Fatalf("report %+v", rep)
	}
	bals, err := l.Balances(context.Background(), "10000001", "")
	if err != nil || len(bals) != 2 {
		t.Fatalf("balances %v %v", bals, err)
	}
	spot, err := l.Balances(context.Background(), "10000001", Spot)
	if err != nil || len(spot) != 1 || spot[0].Coin != "USDT" || spot[0].Account != u {
		t.Fatalf("spot balances %v %v", spot, err)
	}
}

func TestInsufficientWritesNothing(t *testing.T) {
	st := openStore(t)
	l := New(st, nil)
	u := UserAccount("1", Spot)
	mustPost(t, l, Posting{ID: "dep", Reason: "deposit", Legs: []Leg{Move(BankAccount("KHAN"), u, "MNT", d("1000"))}})
	_, err := l.Post(context.Background(), Posting{ID: "x", Reason: "transfer", Legs: []Leg{Move(u, UserAccount("1", OTC), "MNT", d("1000.01"))}})
	var ie *InsufficientError
	if !errors.As(err, &ie) || !errors.Is(err, ErrInsufficient) || ie.Account != u || ie.Coin != "MNT" {
		t.Fatalf("got %v", err)
	}
	if _, err := st.Get(context.Background(), store.Key{PK: "POST#x", SK: "POST"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("failed posting left a record: %v", err)
	}
	// Two legs debiting the same balance are checked together.
	_, err = l.Post(context.Background(), Posting{ID: "y", Reason: "transfer", Legs: []Leg{
		Move(u, UserAccount("1", OTC), "MNT", d("600")),
		Move(u, UserAccount("1", Earn), "MNT", d("600")),
	}})
	if !errors.Is(err, ErrInsufficient) {
		t.Fatalf("merged debit: %v", err)
	}
	// Frozen cannot be spent beyond what is frozen.
	mustPost(t, l, Posting{ID: "h", Reason: "hold", Legs: []Leg{HoldLeg(u, "MNT", d("10"))}})
	_, err = l.Post(context.Background(), Posting{ID: "r", Reason: "release", Legs: []Leg{ReleaseLeg(u, "MNT", d("10.5"))}})
	if !errors.Is(err, ErrInsufficient) {
		t.Fatalf("over-release: %v", err)
	}
	wantBalance(t, l, u, "MNT", "990", "10")
	wantClean(t, l)
}

func TestIdempotency(t *testing.T) {
	l := New(openStore(t), nil)
	u := UserAccount("1", Spot)
	p := Posting{ID: "dep:tx1", Reason: "deposit", Legs: []Leg{Move(ChainAccount("BTC"), u, "BTC", d("0.5"))}}
	if r := mustPost(t, l, p); r.Replayed {
		t.Fatal("first post reported replayed")
	}
	if r := mustPost(t, l, p); !r.Replayed {
		t.Fatal("replay not reported")
	}
	wantBalance(t, l, u, "BTC", "0.5", "0")
	p.Legs[0].Amount = d("0.6")
	if _, err := l.Post(context.Background(), p); !errors.Is(err, ErrIDConflict) {
		t.Fatalf("reused id with other legs: %v", err)
	}
	wantBalance(t, l, u, "BTC", "0.5", "0")
	wantClean(t, l)
}

func TestLookup(t *testing.T) {
	at := time.UnixMilli(1700000000123).UTC()
	l := New(openStore(t), func() time.Time { return at })
	ctx := context.Background()
	u := UserAccount("1", Spot)
	mustPost(t, l, Posting{ID: "trade:btcusdt:7", Reason: "trade", Meta: map[string]string{"buyOrder": "11", "sellOrder": "12"},
		Legs: []Leg{Move(ChainAccount("BTC"), u, "BTC", d("0.5"))}})
	mustPost(t, l, Posting{ID: "dep:1", Reason: "deposit", Legs: []Leg{Move(ChainAccount("BTC"), u, "BTC", d("1"))}})
	r, err := l.Lookup(ctx, "trade:btcusdt:7")
	if err != nil {
		t.Fatal(err)
	}
	if r.Reason != "trade" || r.Meta["buyOrder"] != "11" || r.Meta["sellOrder"] != "12" || !r.At.Equal(at) {
		t.Fatalf("lookup = %+v", r)
	}
	if r, err := l.Lookup(ctx, "dep:1"); err != nil || r.Meta != nil || r.Reason != "deposit" {
		t.Fatalf("lookup without meta = %+v, %v", r, err)
	}
	if _, err := l.Lookup(ctx, "trade:btcusdt:8"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("lookup of an id never applied: %v", err)
	}
}

// A book written before the compact legs text holds JSON legs and a hash:
// its postings still replay, still refuse a reused id and still audit.
func TestRecordsOfTheJSONFormat(t *testing.T) {
	st := openStore(t)
	l := New(st, nil)
	u := UserAccount("1", Spot)
	old := Posting{ID: "dep:old", Reason: "deposit", Legs: []Leg{Move(ChainAccount("BTC"), u, "BTC", d("0.5"))}}
	js, err := json.Marshal(old.Legs)
	if err != nil {
		t.Fatal(err)
	}
	pk, sk := balanceKeyParts(u, "BTC")
	cpk, csk := balanceKeyParts(ChainAccount("BTC"), "BTC")
	if err := st.Transact(context.Background(), []store.Op{
		store.PutOp(store.Item{store.AttrPK: "POST#" + old.ID, store.AttrSK: "POST", "reason": old.Reason, "legs": string(js),
			"hash": postingHash(old), "at": int64(1), store.AttrGSI2PK: shardKeys[shardOf(old.ID)],
			store.AttrGSI2SK: postingSortKey(1, old.ID)}, nil),
		store.PutOp(store.Item{store.AttrPK: pk, store.AttrSK: sk, "owner": "1", "kind": "spot", "sub": "", "coin": "BTC",
			"avail": d("0.5"), "frozen": d("0"), store.AttrGSI1PK: "BALCOIN#BTC", store.AttrGSI1SK: "1#spot#"}, nil),
		store.PutOp(store.Item{store.AttrPK: cpk, store.AttrSK: csk, "owner": SystemOwner, "kind": "chain", "sub": "BTC", "coin": "BTC",
			"avail": d("-0.5"), "frozen": d("0"), store.AttrGSI1PK: "BALCOIN#BTC", store.AttrGSI1SK: SystemOwner + "#chain#BTC"}, nil),
	}); err != nil {
		t.Fatal(err)
	}
	if r := mustPost(t, l, old); !r.Replayed {
		t.Fatal("the JSON-format posting was applied again")
	}
	other := old
	other.Legs = []Leg{Move(ChainAccount("BTC"), u, "BTC", d("0.6"))}
	if _, err := l.Post(context.Background(), other); !errors.Is(err, ErrIDConflict) {
		t.Fatalf("reused id of a JSON-format posting: %v", err)
	}
	mustPost(t, l, Posting{ID: "dep:new", Reason: "deposit", Legs: []Leg{Move(ChainAccount("BTC"), u, "BTC", d("0.25"))}})
	wantBalance(t, l, u, "BTC", "0.75", "0")
	if rep := wantClean(t, l); rep.Postings != 2 {
		t.Fatalf("audit replayed %d postings, want 2", rep.Postings)
	}
}

func TestExtraOpsAtomic(t *testing.T) {
	st := openStore(t)
	l := New(st, nil)
	u := UserAccount("1", Spot)
	mustPost(t, l, Posting{ID: "dep", Reason: "deposit", Legs: []Leg{Move(ChainAccount("TRC20"), u, "USDT", d("10"))}})
	order := store.Item{store.AttrPK: "ORDER#1", store.AttrSK: "ORDER", "status": "NEW"}
	mustPost(t, l, Posting{ID: "o1", Reason: "order_hold", Legs: []Leg{HoldLeg(u, "USDT", d("4"))},
		Extra: []store.Op{store.PutOp(order, store.ItemNotExists())}})
	// The same extra again fails its condition: the hold must not apply.
	_, err := l.Post(context.Background(), Posting{ID: "o2", Reason: "order_hold", Legs: []Leg{HoldLeg(u, "USDT", d("4"))},
		Extra: []store.Op{store.PutOp(order, store.ItemNotExists())}})
	var xe *ExtraFailedError
	if !errors.As(err, &xe) || xe.Index != 0 || !errors.Is(err, store.ErrConditionFailed) {
		t.Fatalf("got %v", err)
	}
	wantBalance(t, l, u, "USDT", "6", "4")
	// Extras may not touch ledger items.
	_, err = l.Post(context.Background(), Posting{ID: "o3", Reason: "x", Legs: []Leg{HoldLeg(u, "USDT", d("1"))},
		Extra: []store.Op{store.DeleteOp(store.Key{PK: "BAL#1", SK: "spot##USDT"}, nil)}})
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("extra on a balance: %v", err)
	}
	wantClean(t, l)
}

func TestValidation(t *testing.T) {
	l := New(openStore(t), nil)
	u := UserAccount("1", Spot)
	bad := []Posting{
		{Reason: "x", Legs: []Leg{Move(ChainAccount("C"), u, "BTC", d("1"))}},
		{ID: "a", Legs: []Leg{Move(ChainAccount("C"), u, "BTC", d("1"))}},
		{ID: "a", Reason: "x"},
		{ID: "a", Reason: "x", Legs: []Leg{Move(ChainAccount("C"), u, "BTC", d("0"))}},
		{ID: "a", Reason: "x", Legs: []Leg{Move(ChainAccount("C"), u, "BTC", d("-1"))}},
		{ID: "a", Reason: "x", Legs: []Leg{Move(ChainAccount("C"), u, "BTC", d("0.0000000000000000001"))}},
		{ID: "a", Reason: "x", Legs: []Leg{Move(ChainAccount("C"), u, "", d("1"))}},
		{ID: "a", Reason: "x", Legs: []Leg{Move(u, u, "BTC", d("1"))}},
		{ID: "a", Reason: "x", Legs: []Leg{Move(Account{Owner: "1", Kind: Chain}, u, "BTC", d("1"))}},
		{ID: "a", Reason: "x", Legs: []Leg{Move(Account{Owner: SystemOwner, Kind: Spot}, u, "BTC", d("1"))}},
		{ID: "a", Reason: "x", Legs: []Leg{Move(Account{Owner: "1", Kind: MarginIsolated}, u, "BTC", d("1"))}},
		{ID: "a", Reason: "x", Legs: []Leg{Move(ChainAccount(""), u, "BTC", d("1"))}},
		{ID: "a", Reason: "x", Legs: []Leg{{From: ChainAccount("C"), FromBucket: Frozen, To: u, ToBucket: Available, Coin: "BTC", Amount: d("1")}}},
	}
	for i, p := range bad {
		if _, err := l.Post(context.Background(), p); !errors.Is(err, ErrInvalid) {
			t.Errorf("case %d: got %v, want ErrInvalid", i, err)
		}
	}
}

func TestAuditChecksCatalogueCoins(t *testing.T) {
	st := openStore(t)
	l := New(st, nil)
	// A balance that no posting explains, of a coin no posting mentions:
	// only the catalogue's coin list brings it into the audit.
	if _, err := st.Update(context.Background(), store.Key{PK: "BAL#9", SK: "spot##TON"},
		store.NewUpdate().Add("avail", d("5")).Set("owner", "9").Set("kind", "spot").Set("sub", "").Set("coin", "TON").
			Set(store.AttrGSI1PK, "BALCOIN#TON").Set(store.AttrGSI1SK, "9#spot#"), nil); err != nil {
		t.Fatal(err)
	}
	if rep, err := l.Audit(context.Background()); err != nil || !rep.Clean() {
		t.Fatalf("without the catalogue the coin is unseen: %v %v", rep.Problems, err)
	}
	rep, err := l.Audit(context.Background(), "BTC", "TON")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Clean() || !strings.Contains(strings.Join(rep.Problems, "\n"), "no posting explains") {
		t.Fatalf("problems %v", rep.Problems)
	}
}

func TestAuditFindsTampering(t *testing.T) {
	st := openStore(t)
	l := New(st, nil)
	u := UserAccount("1", Spot)
	mustPost(t, l, Posting{ID: "dep", Reason: "deposit", Legs: []Leg{Move(ChainAccount("BTC"), u, "BTC", d("2"))}})
	// A balance changed behind the ledger's back must be reported.
	if _, err := st.Update(context.Background(), store.Key{PK: "BAL#1", SK: "spot##BTC"}, store.NewUpdate().Add("avail", d("1")), nil); err != nil {
		t.Fatal(err)
	}
	rep, err := l.Audit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Clean() || len(rep.Problems) != 2 {
		t.Fatalf("problems %v", rep.Problems)
	}
	joined := strings.Join(rep.Problems, "\n")
	if !strings.Contains(joined, "stored 3/0, postings give 2/0") || !strings.Contains(joined, "holdings 3 differ from net external inflow 2") {
		t.Fatalf("problems %v", rep.Problems)
	}
}

// TestRandomInterleavings runs random deposits, transfers, holds, releases
// and withdrawals from concurrent goroutines against a model: every
// operation the ledger accepts must be one the model accepts, balances must
// match the model at the end, and the audit must be clean.
func TestRandomInterleavings(t *testing.T) {
	st := openStore(t)
	l := New(st, nil)
	users := []string{"1", "2", "3", "4"}
	coins := []string{"BTC", "USDT"}
	kinds := []Kind{Spot, Futures, OTC, Earn}
	const workers, opsPer = 8, 150
	var mu sync.Mutex // serialises the model and the post per balance set
	model := map[string]decimal.Decimal{}
	key := func(a Account, coin string, b Bucket) string { return fmt.Sprintf("%s|%s|%s", a, coin, b) }
	apply := func(p Posting) bool {
		next := map[string]decimal.Decimal{}
		for _, lg := range p.Legs {
			fk, tk := key(lg.From, lg.Coin, lg.FromBucket), key(lg.To, lg.Coin, lg.ToBucket)
			if _, ok := next[fk]; !ok {
				next[fk] = model[fk]
			}
			if _, ok := next[tk]; !ok {
				next[tk] = model[tk]
			}
			next[fk] = next[fk].Sub(lg.Amount)
			next[tk] = next[tk].Add(lg.Amount)
		}
		for _, lg := range p.Legs {
			if !lg.From.Kind.External() && next[key(lg.From, lg.Coin, lg.FromBucket)].IsNegative() {
				return false
			}
		}
		for k, v := range next {
			model[k] = v
		}
		return true
	}
	var wg sync.WaitGroup
	errc := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(w)))
			for i := 0; i < opsPer; i++ {
				uid := users[rng.Intn(len(users))]
				coin := coins[rng.Intn(len(coins))]
				amt := decimal.New(int64(1+rng.Intn(5000)), -int32(rng.Intn(4)))
				spot := UserAccount(uid, Spot)
				other := UserAccount(uid, kinds[1+rng.Intn(len(kinds)-1)])
				var p Posting
				id := fmt.Sprintf("w%d-%d", w, i)
				switch rng.Intn(6) {
				case 0, 1:
					p = Posting{ID: id, Reason: "deposit", Legs: []Leg{Move(ChainAccount("C"+coin), spot, coin, amt)}}
				case 2:
					p = Posting{ID: id, Reason: "transfer", Legs: []Leg{Move(spot, other, coin, amt)}}
				case 3:
					p = Posting{ID: id, Reason: "hold", Legs: []Leg{HoldLeg(spot, coin, amt)}}
				case 4:
					p = Posting{ID: id, Reason: "release", Legs: []Leg{ReleaseLeg(spot, coin, amt)}}
				default:
					fee := amt.Div(decimal.NewFromInt(100)).Truncate(6)
					legs := []Leg{{From: spot, FromBucket: Frozen, To: ChainAccount("C" + coin), ToBucket: Available, Coin: coin, Amount: amt}}
					if fee.IsPositive() {
						legs = append(legs, Leg{From: spot, FromBucket: Frozen, To: FeeAccount(), ToBucket: Available, Coin: coin, Amount: fee})
					}
					p = Posting{ID: id, Reason: "withdraw", Legs: legs}
				}
				mu.Lock()
				_, err := l.Post(context.Background(), p)
				ok := apply(p)
				mu.Unlock()
				switch {
				case err == nil && !ok:
					errc <- fmt.Errorf("%s: ledger accepted what the model refuses", id)
					return
				case errors.Is(err, ErrInsufficient) && ok:
					errc <- fmt.Errorf("%s: ledger refused what the model accepts", id)
					return
				case err != nil && !errors.Is(err, ErrInsufficient):
					errc <- fmt.Errorf("%s: %v", id, err)
					return
				}
				// Retries of an applied posting are no-ops.
				if err == nil && rng.Intn(10) == 0 {
					if r, err := l.Post(context.Background(), p); err != nil || !r.Replayed {
						errc <- fmt.Errorf("%s replay: %v %v", id, r, err)
						return
					}
				}
			}
		}(w)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	for k, want := range model {
		parts := strings.Split(k, "|")
		var acct Account
		for _, uid := range append(users, SystemOwner) {
			for _, kd := range []Kind{Spot, Futures, OTC, Earn, Chain, Fees} {
				for _, sub := range []string{"", "CBTC", "CUSDT"} {
					a := Account{Owner: uid, Kind: kd, Sub: sub}
					if a.String() == parts[0] {
						acct = a
					}
				}
			}
		}
		b, err := l.Balance(context.Background(), acct, parts[1])
		if err != nil {
			t.Fatal(err)
		}
		got := b.Available
		if Bucket(parts[2]) == Frozen {
			got = b.Frozen
		}
		if !got.Equal(want) {
			t.Fatalf("%s: ledger %s, model %s", k, got, want)
		}
	}
	wantClean(t, l)
}

func TestConcurrentDebitsNeverOverdraw(t *testing.T) {
	l := New(openStore(t), nil)
	u := UserAccount("1", Spot)
	mustPost(t, l, Posting{ID: "dep", Reason: "deposit", Legs: []Leg{Move(ChainAccount("C"), u, "USDT", d("100"))}})
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for g := 0; g < 50; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				_, err := l.Post(context.Background(), Posting{ID: fmt.Sprintf("d%d-%d", g, i), Reason: "transfer",
					Legs: []Leg{Move(u, UserAccount("2", Spot), "USDT", d("0.7"))}})
				if err == nil {
					mu.Lock()
					ok++
					mu.Unlock()
				} else if !errors.Is(err, ErrInsufficient) {
					t.Error(err)
				}
			}
		}(g)
	}
	wg.Wait()
	if ok != 142 { // floor(100 / 0.7)
		t.Fatalf("%d debits succeeded, want 142", ok)
	}
	wantBalance(t, l, u, "USDT", "0.6", "0")
	wantClean(t, l)
}

// A treasury account pays promotional money (a competition's prizes) into
// users' accounts: it is external, so it goes negative by what it paid and
// the audit counts that as money that came in; it needs a sub and belongs
// to the exchange only.
func TestTreasuryPaysAsAnExternalAccount(t *testing.T) {
	l := New(openStore(t), nil)
	tr := TreasuryAccount("competition")
	if !tr.Kind.External() || !tr.Kind.MayBeNegative() || tr.Validate() != nil {
		t.Fatalf("treasury account %+v", tr)
	}
	for _, a := range []Account{TreasuryAccount(""), {Owner: "1", Kind: Treasury, Sub: "competition"}} {
		if err := a.Validate(); !errors.Is(err, ErrInvalid) {
			t.Fatalf("%+v: %v", a, err)
		}
	}
	u := UserAccount("10000001", Spot)
	mustPost(t, l, Posting{ID: "competition:c1:10000001", Reason: "competition_prize", Legs: []Leg{Move(tr, u, "USDT", d("1000"))}})
	// Its balance may not be frozen, as no external account's may.
	if _, err := l.Post(context.Background(), Posting{ID: "x", Reason: "x", Legs: []Leg{{From: tr, FromBucket: Frozen, To: u, ToBucket: Available,
		Coin: "USDT", Amount: d("1")}}}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("frozen treasury leg: %v", err)
	}
	wantBalance(t, l, tr, "USDT", "-1000", "0")
	wantBalance(t, l, u, "USDT", "1000", "0")
	rep := wantClean(t, l)
	if len(rep.Coins) != 1 || !rep.Coins[0].NetExternalInflow.Equal(d("1000")) || !rep.Coins[0].Holdings.Equal(d("1000")) {
		t.Fatalf("report %+v", rep)
	}
}
