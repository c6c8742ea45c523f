package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/combine"
	"tenger/internal/store"
)

// Limits of one posting.
const (
	// MaxLegs bounds the legs of a posting (each leg touches at most two
	// balances, and a store transaction holds at most 100 writes).
	MaxLegs = 32
	// MaxScale is the most decimal places an amount may have.
	MaxScale = 18
	// postingShards spreads the posting index over partitions so DynamoDB
	// never meets one hot index partition.
	postingShards = 16
)

// Errors. Callers test them with errors.Is.
var (
	// ErrInvalid: the posting is malformed; nothing was written.
	ErrInvalid = errors.New("ledger: invalid posting")
	// ErrInsufficient: a debited bucket holds less than the posting takes.
	ErrInsufficient = errors.New("ledger: insufficient balance")
	// ErrIDConflict: the posting id was used before for a different posting.
	ErrIDConflict = errors.New("ledger: posting id reused for a different posting")
)

// InsufficientError names the balance that was short.
type InsufficientError struct {
	Account Account
	Coin    string
}

func (e *InsufficientError) Error() string {
	return fmt.Sprintf("ledger: insufficient %s balance in %s", e.Coin, e.Account)
}

// Is matches ErrInsufficient.
func (e *InsufficientError) Is(t error) bool { return t == ErrInsufficient }

// ExtraFailedError reports that one of the caller's extra operations failed
// its condition (Index is its position in Posting.Extra). It matches
// store.ErrConditionFailed.
type ExtraFailedError struct{ Index int }

func (e *ExtraFailedError) Error() string {
	return fmt.Sprintf("ledger: condition of extra operation %d failed", e.Index)
}

// Is matches store.ErrConditionFailed.
func (e *ExtraFailedError) Is(t error) bool { return t == store.ErrConditionFailed }

// Leg moves Amount of Coin from one account bucket to another.
type Leg struct {
	From       Account         `json:"from"`
	FromBucket Bucket          `json:"fromBucket"`
	To         Account         `json:"to"`
	ToBucket   Bucket          `json:"toBucket"`
	Coin       string          `json:"coin"`
	Amount     decimal.Decimal `json:"amount"`
}

// Move is a leg between the available buckets of two accounts.
func Move(from, to Account, coin string, amount decimal.Decimal) Leg {
	return Leg{From: from, FromBucket: Available, To: to, ToBucket: Available, Coin: coin, Amount: amount}
}

// HoldLeg freezes amount within one account.
func HoldLeg(a Account, coin string, amount decimal.Decimal) Leg {
	return Leg{From: a, FromBucket: Available, To: a, ToBucket: Frozen, Coin: coin, Amount: amount}
}

// ReleaseLeg unfreezes amount within one account.
func ReleaseLeg(a Account, coin string, amount decimal.Decimal) Leg {
	return Leg{From: a, FromBucket: Frozen, To: a, ToBucket: Available, Coin: coin, Amount: amount}
}

// Posting is one atomic, idempotent change of balances.
type Posting struct {
	// ID is the idempotency key, chosen by the caller and reused on retry
	// (e.g. "deposit:ERC20:<txid>:<n>", "trade:<id>").
	ID string
	// Reason says why (deposit, withdraw_hold, transfer, trade ...).
	Reason string
	Legs   []Leg
	// Meta is stored with the posting (references such as an order id).
	Meta map[string]string
	// Extra store operations committed in the same transaction: the
	// domain record the money movement belongs to (a withdrawal, an order,
	// an outbox message). None may touch a balance or posting item.
	Extra []store.Op
}

// Result says what Post did.
type Result struct {
	// Replayed is true when the posting id had already been applied; then
	// nothing was written now.
	Replayed bool
}

// Ledger posts to and reads from the book.
type Ledger struct {
	st    store.Store
	now   func() time.Time
	b     *combine.Combiner[Posting, outcome]
	known knownBalances
}

// New returns a ledger on the store. Concurrent postings are committed
// together in batches (see batch.go).
func New(st store.Store, now func() time.Time) *Ledger {
	if now == nil {
		now = time.Now
	}
	l := &Ledger{st: st, now: now}
	l.b = newBatcher(l)
	return l
}

type delta struct {
	acct          Account
	coin          string
	pk, sk        string // the balance item's key
	avail, frozen decimal.Decimal
}

// Post applies a posting atomically. Replaying an id that was applied with
// the same legs returns Result{Replayed: true}; with other legs ErrIDConflict.
func (l *Ledger) Post(ctx context.Context, p Posting) (Result, error) {
	o := l.b.Do(ctx, p)
	return o.res, o.err
}

// postOne commits one posting in its own transaction.
func (l *Ledger) postOne(ctx context.Context, p Posting) (Result, error) {
	ops, nBal, err := l.build(p)
	if err != nil {
		return Result{}, err
	}
	err = l.st.Transact(ctx, ops)
	if err == nil {
		l.known.addOps(ops[1 : 1+nBal])
		return Result{}, nil
	}
	var tc *store.TxCanceledError
	if !errors.As(err, &tc) {
		return Result{}, err
	}
	switch {
	case tc.Index == 0:
		return l.replay(ctx, p)
	case tc.Index <= nBal:
		d := l.deltaAt(p, tc.Index-1)
		return Result{}, &InsufficientError{Account: d.acct, Coin: d.coin}
	default:
		return Result{}, &ExtraFailedError{Index: tc.Index - 1 - nBal}
	}
}

// Ops returns the store operations of a posting without committing them,
// for callers that must combine a posting with writes of their own in a
// transaction they run (the operations' order is: posting record, balances,
// extras). Prefer Post, which maps failures to ledger errors.
func (l *Ledger) Ops(p Posting) ([]store.Op, error) {
	ops, _, err := l.build(p)
	return ops, err
}

func (l *Ledger) build(p Posting) ([]store.Op, int, error) {
	rec, err := l.record(p)
	if err != nil {
		return nil, 0, err
	}
	deltas := mergeLegs(p.Legs)
	ops := make([]store.Op, 0, 1+len(deltas)+len(p.Extra))
	ops = append(ops, rec)
	for _, d := range deltas {
		ops = append(ops, balanceOp(d, d.avail.Neg(), d.frozen.Neg(), l.known.has(d.pk, d.sk)))
	}
	ops = append(ops, p.Extra...)
	if len(ops) > store.MaxTransactItems {
		return nil, 0, fmt.Errorf("%w: %d store operations, at most %d", ErrInvalid, len(ops), store.MaxTransactItems)
	}
	return ops, len(deltas), nil
}

// record validates a posting and returns the put of its idempotency record
// (condition: the id is new).
func (l *Ledger) record(p Posting) (store.Op, error) {
	if err := validate(p); err != nil {
		return store.Op{}, err
	}
	for i, x := range p.Extra {
		if strings.HasPrefix(x.Key.PK, "BAL#") || strings.HasPrefix(x.Key.PK, "POST#") {
			return store.Op{}, fmt.Errorf("%w: extra operation %d touches the ledger's own items", ErrInvalid, i)
		}
	}
	return store.PutOp(recordItem(p, l.now().UnixMilli()), store.ItemNotExists()), nil
}

// recordItem is a posting's record as stored.
func recordItem(p Posting, now int64) store.Item {
	rec := make(store.Item, 8)
	rec[store.AttrPK] = "POST#" + p.ID
	rec[store.AttrSK] = "POST"
	rec["reason"] = p.Reason
	rec["legs"] = legsText(p.Legs)
	if len(p.Meta) > 0 {
		metaJSON, _ := json.Marshal(p.Meta)
		rec["meta"] = string(metaJSON)
	}
	rec["at"] = now
	rec[store.AttrGSI2PK] = shardKeys[shardOf(p.ID)]
	rec[store.AttrGSI2SK] = postingSortKey(now, p.ID)
	return rec
}

// balanceOp is the update of one balance by d, on condition that the
// balance holds at least debitAv available and debitFr frozen (non-positive
// debits mean no condition). External accounts may go negative. A balance
// item that does not exist yet gets its owner, kind, sub, coin and index
// attributes; when exists is true the item is known to have them already
// (see knownBalances), and the update leaves them out.
func balanceOp(d delta, debitAv, debitFr decimal.Decimal, exists bool) store.Op {
	// Eight actions at most: two adds and six set-if-missing.
	upd := &store.Update{Actions: make([]store.UpdateAction, 0, 8)}
	var conds []store.Cond
	if !d.avail.IsZero() {
		upd.Add(string(Available), d.avail)
	}
	if !d.frozen.IsZero() {
		upd.Add(string(Frozen), d.frozen)
	}
	if !d.acct.Kind.External() {
		if debitAv.IsPositive() {
			conds = append(conds, store.Ge(string(Available), debitAv))
		}
		if debitFr.IsPositive() {
			conds = append(conds, store.Ge(string(Frozen), debitFr))
		}
	}
	// A batch can leave a balance's total unchanged while still debiting
	// it (a credit and a debit of one amount); its update then carries the
	// creation attributes so that it is not empty.
	if !exists || len(upd.Actions) == 0 {
		upd.SetIfMissing("owner", d.acct.Owner).SetIfMissing("kind", string(d.acct.Kind)).
			SetIfMissing("sub", d.acct.Sub).SetIfMissing("coin", d.coin).
			SetIfMissing(store.AttrGSI1PK, "BALCOIN#"+d.coin).
			SetIfMissing(store.AttrGSI1SK, d.acct.Owner+"#"+string(d.acct.Kind)+"#"+d.acct.Sub)
	}
	var cond store.Cond
	if len(conds) == 1 {
		cond = conds[0]
	} else if len(conds) > 1 {
		cond = store.And(conds...)
	}
	return store.UpdateOp(store.Key{PK: d.pk, SK: d.sk}, upd, cond)
}

// deltaAt returns the i-th merged balance delta of a posting (the order Post uses).
func (l *Ledger) deltaAt(p Posting, i int) delta {
	ds := mergeLegs(p.Legs)
	if i < 0 || i >= len(ds) {
		return delta{}
	}
	return ds[i]
}

func (l *Ledger) replay(ctx context.Context, p Posting) (Result, error) {
	it, err := l.st.Get(ctx, store.Key{PK: "POST#" + p.ID, SK: "POST"})
	if err != nil {
		return Result{}, fmt.Errorf("ledger: read replayed posting %s: %w", p.ID, err)
	}
	if !sameAsRecord(it, p) {
		return Result{}, fmt.Errorf("%w: %s", ErrIDConflict, p.ID)
	}
	return Result{Replayed: true}, nil
}

// Recorded is what the ledger keeps of an applied posting.
type Recorded struct {
	Reason string
	Meta   map[string]string
	At     time.Time
}

// Lookup returns the record of an applied posting, or store.ErrNotFound
// when the id was never applied.
func (l *Ledger) Lookup(ctx context.Context, id string) (Recorded, error) {
	it, err := l.st.Get(ctx, store.Key{PK: "POST#" + id, SK: "POST"})
	if err != nil {
		return Recorded{}, err
	}
	r := Recorded{Reason: it.Str("reason"), At: time.UnixMilli(it.Int("at")).UTC()}
	if m := it.Str("meta"); m != "" {
		if err := json.Unmarshal([]byte(m), &r.Meta); err != nil {
			return Recorded{}, fmt.Errorf("ledger: posting %s: meta: %w", id, err)
		}
	}
	return r, nil
}

func validate(p Posting) error {
	if p.ID == "" || len(p.ID) > 200 {
		return fmt.Errorf("%w: id must be 1 to 200 characters", ErrInvalid)
	}
	if p.Reason == "" {
		return fmt.Errorf("%w: reason is required", ErrInvalid)
	}
	if len(p.Legs) == 0 || len(p.Legs) > MaxLegs {
		return fmt.Errorf("%w: 1 to %d legs", ErrInvalid, MaxLegs)
	}
	for i, lg := range p.Legs {
		if err := lg.From.Validate(); err != nil {
			return fmt.Errorf("leg %d from: %w", i, err)
		}
		if err := lg.To.Validate(); err != nil {
			return fmt.Errorf("leg %d to: %w", i, err)
		}
		if lg.FromBucket != Available && lg.FromBucket != Frozen || lg.ToBucket != Available && lg.ToBucket != Frozen {
			return fmt.Errorf("%w: leg %d has an unknown bucket", ErrInvalid, i)
		}
		if lg.From == lg.To && lg.FromBucket == lg.ToBucket {
			return fmt.Errorf("%w: leg %d moves a bucket onto itself", ErrInvalid, i)
		}
		if lg.Coin == "" || strings.ContainsAny(lg.Coin, "# ") || len(lg.Coin) > 20 {
			return fmt.Errorf("%w: leg %d has a bad coin %q", ErrInvalid, i, lg.Coin)
		}
		if !lg.Amount.IsPositive() {
			return fmt.Errorf("%w: leg %d amount must be positive", ErrInvalid, i)
		}
		if -lg.Amount.Exponent() > MaxScale {
			return fmt.Errorf("%w: leg %d amount has more than %d decimals", ErrInvalid, i, MaxScale)
		}
		if (lg.From.Kind.External() && lg.FromBucket == Frozen) || (lg.To.Kind.External() && lg.ToBucket == Frozen) {
			return fmt.Errorf("%w: external accounts have no frozen bucket", ErrInvalid)
		}
	}
	return nil
}

// mergeLegs sums the legs into one delta per balance, in a deterministic
// order, so a posting that debits one balance twice checks the total.
func mergeLegs(legs []Leg) []delta {
	// A posting touches few balances (two per leg at most), so a linear
	// search is cheaper than a map.
	out := make([]delta, 0, 2*len(legs))
	add := func(a Account, coin string, b Bucket, amt decimal.Decimal) {
		i := -1
		for j := range out {
			if out[j].acct == a && out[j].coin == coin {
				i = j
				break
			}
		}
		if i < 0 {
			pk, sk := balanceKeyParts(a, coin)
			i = len(out)
			out = append(out, delta{acct: a, coin: coin, pk: pk, sk: sk})
		}
		if b == Available {
			out[i].avail = plus(out[i].avail, amt)
		} else {
			out[i].frozen = plus(out[i].frozen, amt)
		}
	}
	for _, lg := range legs {
		add(lg.From, lg.Coin, lg.FromBucket, lg.Amount.Neg())
		add(lg.To, lg.Coin, lg.ToBucket, lg.Amount)
	}
	// Drop balances a posting leaves unchanged (a hold and release of the
	// same amount in one posting), then order by key for determinism.
	kept := out[:0]
	for _, d := range out {
		if !d.avail.IsZero() || !d.frozen.IsZero() {
			kept = append(kept, d)
		}
	}
	sort.Slice(kept, func(i, j int) bool {
		if kept[i].pk != kept[j].pk {
			return kept[i].pk < kept[j].pk
		}
		return kept[i].sk < kept[j].sk
	})
	return kept
}

// plus is x + y, taking y as it is when x is zero: most sums of a posting
// or a batch have a single term, and decimal additions allocate.
func plus(x, y decimal.Decimal) decimal.Decimal {
	if x.IsZero() {
		return y
	}
	return x.Add(y)
}

// postingHash fingerprints what a posting does (reason and legs, not the
// meta) as records of the JSON format stored it (see record.go), so a
// replay of such a record can be told apart from a reused id. The layout of
// the hashed text is fixed: stored hashes are compared with it.
func postingHash(p Posting) string {
	b := make([]byte, 0, 32+96*len(p.Legs))
	b = append(b, p.Reason...)
	for _, lg := range p.Legs {
		b = append(b, '|')
		b = appendAccount(b, lg.From)
		b = append(b, '/')
		b = append(b, lg.FromBucket...)
		b = append(b, '>')
		b = appendAccount(b, lg.To)
		b = append(b, '/')
		b = append(b, lg.ToBucket...)
		b = append(b, ':')
		b = append(b, lg.Coin...)
		b = append(b, ':')
		b = append(b, lg.Amount.String()...)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// appendAccount appends Account.String().
func appendAccount(b []byte, a Account) []byte {
	b = append(b, a.Owner...)
	b = append(b, '/')
	b = append(b, a.Kind...)
	if a.Sub != "" {
		b = append(b, '/')
		b = append(b, a.Sub...)
	}
	return b
}

// shardKeys are the posting index partitions' keys.
var shardKeys = func() (k [postingShards]string) {
	for i := range k {
		k[i] = fmt.Sprintf("POSTSHARD#%02d", i)
	}
	return k
}()

// shardOf spreads posting ids over the index partitions (FNV-1a: any even
// spread will do, the audit reads every partition).
func shardOf(id string) int {
	h := uint32(2166136261)
	for i := 0; i < len(id); i++ {
		h ^= uint32(id[i])
		h *= 16777619
	}
	return int(h % postingShards)
}

// postingSortKey orders a partition's postings by time: 13 zero-padded
// digits of milliseconds, "#", the id.
func postingSortKey(ms int64, id string) string {
	b := make([]byte, 0, 14+len(id))
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], ms, 10)
	for i := len(d); i < 13; i++ {
		b = append(b, '0')
	}
	b = append(b, d...)
	b = append(b, '#')
	b = append(b, id...)
	return string(b)
}

// Balance is one account's holding of one coin.
type Balance struct {
	Account   Account
	Coin      string
	Available decimal.Decimal
	Frozen    decimal.Decimal
}

// Total is available plus frozen.
func (b Balance) Total() decimal.Decimal { return b.Available.Add(b.Frozen) }

// Balance reads one balance (zero when the account never held the coin).
func (l *Ledger) Balance(ctx context.Context, a Account, coin string) (Balance, error) {
	pk, sk := balanceKeyParts(a, coin)
	it, err := l.st.Get(ctx, store.Key{PK: pk, SK: sk})
	if errors.Is(err, store.ErrNotFound) {
		return Balance{Account: a, Coin: coin}, nil
	}
	if err != nil {
		return Balance{}, err
	}
	return balanceOf(it), nil
}

// Balances lists an owner's balances of one kind (all kinds when kind is "").
func (l *Ledger) Balances(ctx context.Context, owner string, kind Kind) ([]Balance, error) {
	q := store.Query{PK: "BAL#" + owner, Limit: 500}
	if kind != "" {
		q.SK = store.SKPrefixed(string(kind) + "#")
	}
	var out []Balance
	for {
		page, err := l.st.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			out = append(out, balanceOf(it))
		}
		if page.Cursor == "" {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

// CoinBalances calls fn with every stored balance of a coin, page by page
// (the audit's per-coin index): for operator jobs, never a request.
func (l *Ledger) CoinBalances(ctx context.Context, coin string, fn func(Balance) error) error {
	q := store.Query{Index: store.IndexGSI1, PK: "BALCOIN#" + coin, Limit: 500}
	for {
		page, err := l.st.Query(ctx, q)
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			if err := fn(balanceOf(it)); err != nil {
				return err
			}
		}
		if page.Cursor == "" {
			return nil
		}
		q.Cursor = page.Cursor
	}
}

func balanceOf(it store.Item) Balance {
	return Balance{
		Account:   Account{Owner: it.Str("owner"), Kind: Kind(it.Str("kind")), Sub: it.Str("sub")},
		Coin:      it.Str("coin"),
		Available: it.Dec(string(Available)),
		Frozen:    it.Dec(string(Frozen)),
	}
}
