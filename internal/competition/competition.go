package competition

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// Languages of a competition's names and descriptions.
const (
	LangEN = "en_US"
	LangMN = "mn_MN"
)

// States of a competition.
const (
	StateUpcoming = "upcoming"
	StateRunning  = "running"
	StateEnded    = "ended"
	StateSettled  = "settled"
)

// Limits (named, as the ledger's are).
const (
	// MaxPrizeRank is the lowest rank a prize may go to.
	MaxPrizeRank = 1000
	// MaxPrizeRanges bounds a prize table's rows.
	MaxPrizeRanges = 50
	// MaxNameLen and MaxDescriptionLen bound the texts (characters).
	MaxNameLen        = 100
	MaxDescriptionLen = 4000
	// AmountScale is the most decimals of a prize or a minimum balance.
	AmountScale = 8
	// TreasurySub names the treasury account prizes are paid from.
	TreasurySub = "competition"
	// PrizeReason is the ledger reason of a prize's credit.
	PrizeReason = "competition_prize"
)

// DefaultCoins are the margin coins a competition may be held in.
var DefaultCoins = []string{"USDT"}

// idPattern is what a competition's id may be.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// Prize is what each rank from From to To (inclusive) wins.
type Prize struct {
	From   int             `json:"from"`
	To     int             `json:"to"`
	Amount decimal.Decimal `json:"amount"`
}

// Rules are what a user needs to join.
type Rules struct {
	// KYCLevel is the identity verification needed: 0 none, 1 verified.
	KYCLevel int `json:"kycLevel"`
	// Mobile says a bound mobile number is needed.
	Mobile bool `json:"mobile"`
	// MinBalance is the least futures margin balance at joining, in the
	// competition's coin.
	MinBalance decimal.Decimal `json:"minBalance"`
	// FuturesAccount says an opened futures account is needed.
	FuturesAccount bool `json:"futuresAccount"`
}

// DefaultRules are the specification's (§6): KYC, a mobile number, a
// futures account, and funds (the minimum is the operator's).
func DefaultRules(minBalance decimal.Decimal) Rules {
	return Rules{KYCLevel: 1, Mobile: true, MinBalance: minBalance, FuturesAccount: true}
}

// Definition is what the operator defines.
type Definition struct {
	ID string `json:"id"`
	// Names and Descriptions are by language (en_US and mn_MN).
	Names        map[string]string `json:"names"`
	Descriptions map[string]string `json:"descriptions"`
	// Start and End are Unix ms (UTC).
	Start int64 `json:"start"`
	End   int64 `json:"end"`
	// Coin is the margin coin (USDT): balances, profits and prizes are in it.
	Coin   string  `json:"coin"`
	Prizes []Prize `json:"prizes"`
	Rules  Rules   `json:"rules"`
}

// Winner is a rank that wins a prize.
type Winner struct {
	Rank   int64           `json:"rank"`
	UID    string          `json:"uid"`
	Amount decimal.Decimal `json:"amount"`
}

// Competition is a competition as stored.
type Competition struct {
	Definition
	Created, Updated int64
	// Participants is how many joined (each join adds one; each refresh
	// sets the count it read).
	Participants int64
	// Ranked is how many ranks the last refresh wrote, at RefreshedAt.
	Ranked      int64
	RefreshedAt int64
	// FinalAt is when the final refresh ran (0: not yet).
	FinalAt int64
	// SettledAt is when every prize had been paid (0: not yet); Paid is
	// their sum.
	SettledAt int64
	Paid      decimal.Decimal
	ver       int64
}

// State is the competition's state at now.
func (c Competition) State(now time.Time) string {
	ms := now.UnixMilli()
	switch {
	case c.SettledAt > 0:
		return StateSettled
	case ms < c.Start:
		return StateUpcoming
	case ms < c.End:
		return StateRunning
	}
	return StateEnded
}

// PrizePool is the sum of every prize.
func (d Definition) PrizePool() decimal.Decimal {
	sum := decimal.Zero
	for _, p := range d.Prizes {
		sum = sum.Add(p.Amount.Mul(decimal.NewFromInt(int64(p.To - p.From + 1))))
	}
	return sum
}

// PrizeFor is what a rank wins (ok false: nothing).
func (d Definition) PrizeFor(rank int64) (decimal.Decimal, bool) {
	for _, p := range d.Prizes {
		if rank >= int64(p.From) && rank <= int64(p.To) {
			return p.Amount, true
		}
	}
	return decimal.Zero, false
}

// MaxRank is the lowest rank that wins a prize.
func (d Definition) MaxRank() int64 {
	m := 0
	for _, p := range d.Prizes {
		m = max(m, p.To)
	}
	return int64(m)
}

// Name is the competition's name in lang (English when it has none).
func (d Definition) Name(lang string) string { return pick(d.Names, lang) }

// Description is its description in lang (English when it has none).
func (d Definition) Description(lang string) string { return pick(d.Descriptions, lang) }

func pick(m map[string]string, lang string) string {
	if s := m[lang]; s != "" {
		return s
	}
	return m[LangEN]
}

// User is what the rules need to know of a user.
type User struct {
	// Nick is how the rankings name the user (masked there).
	Nick string
	// KYCLevel is the verification held: 1 when verified, else 0.
	KYCLevel int
	// Mobile says a mobile number is bound.
	Mobile bool
}

// Users reads users (package auth's user items).
type Users interface {
	CompetitionUser(ctx context.Context, uid string) (User, error)
}

// Futures reads users' futures accounts (package futures).
type Futures interface {
	// MarginBalance is the user's futures margin balance in coin:
	// wallet balance + unrealized PnL at mark (zero without an account).
	MarginBalance(ctx context.Context, uid, coin string) (decimal.Decimal, error)
	// Opened says the user opened a futures account.
	Opened(ctx context.Context, uid string) (bool, error)
}

// Transfers lists users' transfers between spot and futures (package
// wallet's records).
type Transfers interface {
	// FuturesTransfers are the user's transfers of coin made from from to
	// to (Unix ms, inclusive), pending ones included, refused ones not.
	FuturesTransfers(ctx context.Context, uid, coin string, from, to int64) ([]Transfer, error)
}

// Options configure a Service. Store alone serves the operator's
// definitions and the rankings' reads; joining needs Users and Futures,
// refreshing Futures and Transfers, settling Funds.
type Options struct {
	Store     store.Store
	Users     Users
	Futures   Futures
	Transfers Transfers
	// Funds pays prizes into users' spot accounts.
	Funds spotfunds.Funds
	// Treasury is where prizes come from (default
	// ledger.TreasuryAccount(TreasurySub)).
	Treasury ledger.Account
	// Coins are the margin coins a competition may be held in (default
	// DefaultCoins).
	Coins []string
	// Concurrency is how many participants a refresh reads at once
	// (default 8).
	Concurrency int
	Now         func() time.Time
	Log         zerolog.Logger
}

// Service is the futures trading competition.
type Service struct {
	o Options
}

// New returns the service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Treasury == (ledger.Account{}) {
		o.Treasury = ledger.TreasuryAccount(TreasurySub)
	}
	if len(o.Coins) == 0 {
		o.Coins = DefaultCoins
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 8
	}
	return &Service{o: o}
}

// Treasury is the account prizes are paid from.
func (s *Service) Treasury() ledger.Account { return s.o.Treasury }

// Keys and index partitions.
const (
	skCompetition = "C"
	skFinal       = "FINAL"
	listPK        = "COMPS"
	openPK        = "COMPOPEN"
)

func compKey(id string) store.Key  { return store.Key{PK: "COMP#" + id, SK: skCompetition} }
func finalKey(id string) store.Key { return store.Key{PK: "COMP#" + id, SK: skFinal} }
func participantKey(id, uid string) store.Key {
	return store.Key{PK: participantPK(id), SK: uid}
}
func participantPK(id string) string       { return "COMPU#" + id }
func rankPK(id string) string              { return "COMPRANK#" + id }
func rankSK(rank int64) string             { return fmt.Sprintf("%08d", rank) }
func listSK(start int64, id string) string { return fmt.Sprintf("%013d#%s", start, id) }

func internal(err error) error { return apperr.New(apperr.CodeInternal).WithCause(err) }

// passOn answers a catalogue error of another service as it is (a
// session whose user is gone: CodeNotSignedIn), any other as internal.
func passOn(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return err
	}
	return internal(err)
}

func invalid(format string, args ...any) error {
	return apperr.New(apperr.CodeCompetitionInvalid, fmt.Sprintf(format, args...))
}

// Validate checks a definition against the rules every competition keeps.
func (s *Service) Validate(d *Definition) error {
	d.ID = strings.TrimSpace(d.ID)
	if !idPattern.MatchString(d.ID) {
		return invalid("id: 1 to 32 letters, digits, '-' or '_'")
	}
	clean := func(m map[string]string, field string, maxLen int, required bool) (map[string]string, error) {
		out := map[string]string{}
		for lang, v := range m {
			if lang != LangEN && lang != LangMN {
				return nil, invalid("%s: languages are %s and %s, not %q", field, LangEN, LangMN, lang)
			}
			v = strings.TrimSpace(v)
			if !utf8.ValidString(v) || utf8.RuneCountInString(v) > maxLen {
				return nil, invalid("%s.%s: at most %d characters of text", field, lang, maxLen)
			}
			if v != "" {
				out[lang] = v
			}
		}
		if required && (out[LangEN] == "" || out[LangMN] == "") {
			return nil, invalid("%s: both %s and %s are needed", field, LangEN, LangMN)
		}
		return out, nil
	}
	var err error
	if d.Names, err = clean(d.Names, "names", MaxNameLen, true); err != nil {
		return err
	}
	if d.Descriptions, err = clean(d.Descriptions, "descriptions", MaxDescriptionLen, false); err != nil {
		return err
	}
	if d.Start <= 0 || d.End <= d.Start {
		return invalid("start and end: Unix ms, the end after the start")
	}
	d.Coin = strings.ToUpper(strings.TrimSpace(d.Coin))
	if !slices.Contains(s.o.Coins, d.Coin) {
		return invalid("coin: one of %s", strings.Join(s.o.Coins, ", "))
	}
	if len(d.Prizes) == 0 || len(d.Prizes) > MaxPrizeRanges {
		return invalid("prizes: 1 to %d rank ranges", MaxPrizeRanges)
	}
	d.Prizes = slices.Clone(d.Prizes) // sorted here, never in the caller's slice
	sort.SliceStable(d.Prizes, func(i, j int) bool { return d.Prizes[i].From < d.Prizes[j].From })
	for i, p := range d.Prizes {
		if p.From < 1 || p.To < p.From || p.To > MaxPrizeRank {
			return invalid("prizes: ranks from 1 to %d, each range's first rank at most its last", MaxPrizeRank)
		}
		if i > 0 && p.From <= d.Prizes[i-1].To {
			return invalid("prizes: ranks %d to %d overlap another range", p.From, p.To)
		}
		if !p.Amount.IsPositive() || -p.Amount.Exponent() > AmountScale {
			return invalid("prizes: amounts above 0 with at most %d decimals", AmountScale)
		}
	}
	if d.Rules.KYCLevel < 0 || d.Rules.KYCLevel > 1 {
		return invalid("rules.kycLevel: 0 (none) or 1 (verified)")
	}
	if d.Rules.MinBalance.IsNegative() || -d.Rules.MinBalance.Exponent() > AmountScale {
		return invalid("rules.minBalance: 0 or more with at most %d decimals", AmountScale)
	}
	return nil
}

// sameTerms reports whether two definitions hold the same terms: all but
// the names and descriptions.
func sameTerms(a, b Definition) bool {
	if a.Start != b.Start || a.End != b.End || a.Coin != b.Coin || len(a.Prizes) != len(b.Prizes) ||
		a.Rules.KYCLevel != b.Rules.KYCLevel || a.Rules.Mobile != b.Rules.Mobile ||
		a.Rules.FuturesAccount != b.Rules.FuturesAccount || !a.Rules.MinBalance.Equal(b.Rules.MinBalance) {
		return false
	}
	for i := range a.Prizes {
		if a.Prizes[i].From != b.Prizes[i].From || a.Prizes[i].To != b.Prizes[i].To || !a.Prizes[i].Amount.Equal(b.Prizes[i].Amount) {
			return false
		}
	}
	return true
}

// Put creates the competition d defines, or updates the one of its id:
// before it starts anything may change; once started only the names and
// descriptions (its terms are what the participants joined on); once
// settled nothing. created says it was new.
func (s *Service) Put(ctx context.Context, d Definition) (c Competition, created bool, err error) {
	if err := s.Validate(&d); err != nil {
		return Competition{}, false, err
	}
	for range 3 {
		now := s.o.Now()
		cur, err := s.Get(ctx, d.ID)
		switch {
		case errors.Is(err, apperr.New(apperr.CodeCompetitionUnknown)):
			if d.End <= now.UnixMilli() {
				return Competition{}, false, invalid("end: a new competition must end in the future")
			}
			c = Competition{Definition: d, Created: now.UnixMilli(), Updated: now.UnixMilli(), Paid: decimal.Zero, ver: 1}
			err := s.o.Store.Put(ctx, c.item(), store.ItemNotExists())
			if errors.Is(err, store.ErrConditionFailed) {
				continue // created meanwhile: update it
			}
			if err != nil {
				return Competition{}, false, internal(err)
			}
			return c, true, nil
		case err != nil:
			return Competition{}, false, err
		}
		if cur.SettledAt > 0 {
			return Competition{}, false, apperr.New(apperr.CodeCompetitionSettled)
		}
		if now.UnixMilli() >= cur.Start && !sameTerms(cur.Definition, d) {
			return Competition{}, false, apperr.New(apperr.CodeCompetitionLocked)
		}
		upd := store.NewUpdate().Set("names", jsonText(d.Names)).Set("descriptions", jsonText(d.Descriptions)).
			Set("start", d.Start).Set("end", d.End).Set("coin", d.Coin).Set("prizes", jsonText(d.Prizes)).
			Set("kycLevel", int64(d.Rules.KYCLevel)).Set("mobile", d.Rules.Mobile).Set("minBalance", d.Rules.MinBalance.String()).
			Set("futuresAccount", d.Rules.FuturesAccount).Set("updated", now.UnixMilli()).Set(store.AttrVersion, cur.ver+1).
			Set(store.AttrGSI1SK, listSK(d.Start, d.ID))
		if cur.SettledAt == 0 {
			upd.Set(store.AttrGSI2SK, listSK(d.Start, d.ID))
		}
		after, err := s.o.Store.Update(ctx, compKey(d.ID), upd, store.And(store.ItemExists(), store.VersionIs(cur.ver)))
		if errors.Is(err, store.ErrConditionFailed) {
			continue
		}
		if err != nil {
			return Competition{}, false, internal(err)
		}
		c, err = competitionOf(after)
		if err != nil {
			return Competition{}, false, internal(err)
		}
		return c, false, nil
	}
	return Competition{}, false, apperr.New(apperr.CodeCompetitionBusy)
}

// Get reads a competition.
func (s *Service) Get(ctx context.Context, id string) (Competition, error) {
	id = strings.TrimSpace(id)
	if !idPattern.MatchString(id) {
		return Competition{}, apperr.New(apperr.CodeCompetitionUnknown, id)
	}
	it, err := s.o.Store.Get(ctx, compKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return Competition{}, apperr.New(apperr.CodeCompetitionUnknown, id)
	}
	if err != nil {
		return Competition{}, internal(err)
	}
	c, err := competitionOf(it)
	if err != nil {
		return Competition{}, internal(fmt.Errorf("competition %s: %w", id, err))
	}
	return c, nil
}

// List is every competition, by start.
func (s *Service) List(ctx context.Context) ([]Competition, error) {
	return s.list(ctx, store.Query{Index: store.IndexGSI1, PK: listPK}, 0)
}

// open is every competition not settled yet, by start.
func (s *Service) open(ctx context.Context) ([]Competition, error) {
	return s.list(ctx, store.Query{Index: store.IndexGSI2, PK: openPK}, 0)
}

// list reads the competitions an index query finds (at most limit when
// limit is positive).
func (s *Service) list(ctx context.Context, q store.Query, limit int) ([]Competition, error) {
	var items []store.Item
	for {
		page, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return nil, internal(err)
		}
		items = append(items, page.Items...)
		if page.Cursor == "" || limit > 0 && len(items) >= limit {
			break
		}
		q.Cursor = page.Cursor
	}
	if limit > 0 && len(items) > limit {
		items = items[:limit]
	}
	out := make([]Competition, 0, len(items))
	for _, hit := range items {
		// The index may lag the table: the item itself decides.
		it, err := s.o.Store.Get(ctx, hit.Key())
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, internal(err)
		}
		c, err := competitionOf(it)
		if err != nil {
			return nil, internal(fmt.Errorf("competition %s: %w", it.Key(), err))
		}
		if q.PK == openPK && c.SettledAt > 0 {
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

// recentEnded is how many of the latest competitions (by start) Current
// looks at for the last ended one when none is open.
const recentEnded = 10

// Current is the competition the pages show: the running one (ending
// first), else the next to start, else the last to have ended; ok false
// when there is none. It reads the competitions not settled and, when
// none of them runs or is to come, the latest few: not every competition
// ever held.
func (s *Service) Current(ctx context.Context) (Competition, bool, error) {
	now := s.o.Now()
	open, err := s.open(ctx)
	if err != nil {
		return Competition{}, false, err
	}
	cands := open
	live := false
	for _, c := range open {
		if st := c.State(now); st == StateRunning || st == StateUpcoming {
			live = true
		}
	}
	if !live {
		recent, err := s.list(ctx, store.Query{Index: store.IndexGSI1, PK: listPK, Desc: true, Limit: recentEnded}, recentEnded)
		if err != nil {
			return Competition{}, false, err
		}
		cands = append(cands, recent...)
	}
	var best *Competition
	rankOf := map[string]int{StateRunning: 0, StateUpcoming: 1, StateEnded: 2, StateSettled: 2}
	better := func(a, b Competition) bool {
		ra, rb := rankOf[a.State(now)], rankOf[b.State(now)]
		if ra != rb {
			return ra < rb
		}
		switch ra {
		case 0:
			return a.End < b.End
		case 1:
			return a.Start < b.Start
		}
		return a.End > b.End
	}
	for i := range cands {
		if best == nil || better(cands[i], *best) {
			best = &cands[i]
		}
	}
	if best == nil {
		return Competition{}, false, nil
	}
	return *best, true, nil
}

func (s *Service) queryAll(ctx context.Context, q store.Query) ([]store.Item, error) {
	var out []store.Item
	for {
		page, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
		if page.Cursor == "" {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // maps of strings and prize rows always encode
	}
	return string(b)
}

// item is a new competition's item.
func (c Competition) item() store.Item {
	k := compKey(c.ID)
	return store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK, "id": c.ID, "names": jsonText(c.Names), "descriptions": jsonText(c.Descriptions),
		"start": c.Start, "end": c.End, "coin": c.Coin, "prizes": jsonText(c.Prizes), "kycLevel": int64(c.Rules.KYCLevel),
		"mobile": c.Rules.Mobile, "minBalance": c.Rules.MinBalance.String(), "futuresAccount": c.Rules.FuturesAccount,
		"participants": int64(0), "created": c.Created, "updated": c.Updated, store.AttrVersion: c.ver,
		store.AttrGSI1PK: listPK, store.AttrGSI1SK: listSK(c.Start, c.ID),
		store.AttrGSI2PK: openPK, store.AttrGSI2SK: listSK(c.Start, c.ID),
	}
}

func competitionOf(it store.Item) (Competition, error) {
	c := Competition{Definition: Definition{ID: it.Str("id"), Start: it.Int("start"), End: it.Int("end"), Coin: it.Str("coin"),
		Rules: Rules{KYCLevel: int(it.Int("kycLevel")), Mobile: it.Bool("mobile"), FuturesAccount: it.Bool("futuresAccount")}},
		Created: it.Int("created"), Updated: it.Int("updated"), Participants: it.Int("participants"), Ranked: it.Int("ranked"),
		RefreshedAt: it.Int("refreshedAt"), FinalAt: it.Int("finalAt"), SettledAt: it.Int("settledAt"), Paid: decimal.Zero,
		ver: it.Int(store.AttrVersion)}
	var err error
	if c.Rules.MinBalance, err = decimal.NewFromString(it.Str("minBalance")); err != nil {
		return c, fmt.Errorf("minBalance: %w", err)
	}
	if p := it.Str("paid"); p != "" {
		if c.Paid, err = decimal.NewFromString(p); err != nil {
			return c, fmt.Errorf("paid: %w", err)
		}
	}
	for name, dst := range map[string]any{"names": &c.Names, "descriptions": &c.Descriptions, "prizes": &c.Prizes} {
		if err := json.Unmarshal([]byte(it.Str(name)), dst); err != nil {
			return c, fmt.Errorf("%s: %w", name, err)
		}
	}
	return c, nil
}
