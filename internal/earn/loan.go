package earn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// Crypto loans (crypto cash): a user borrows a coin against collateral
// for 7, 14, 30 or 90 days (spec §9). The collateral is held in the
// user's loan account; the loan comes from the exchange's lending account
// (a treasury account "loans": external, the exchange's own money) into
// spot. Interest accrues every hour on the principal at the loan coin's
// hourly rate for the term (rounded up to the coin's unit: the exchange's
// favour), at OverdueMultiplier times that rate during the grace period
// after the due time; the loan's LTV is (principal + interest) ÷ collateral
// at index prices. Repaying takes interest first, then principal; repaid
// in full, the collateral goes back. Collateral may be added at any time
// and taken back within the initial LTV. A loan at the liquidation LTV, or
// unpaid after the grace period, is liquidated: its collateral is sold
// through the spot books (Seller), the debt and a liquidation fee paid,
// and the rest returned.

// Loan terms (spec §9) and statuses.
var LoanTerms = []int{7, 14, 30, 90}

const (
	LoanActive      = "pending_repayment"
	LoanLiquidating = "liquidating"
	LoanRepaid      = "repaid"
	LoanLiquidated  = "liquidated"
)

// LoanCoin is a coin users may borrow.
type LoanCoin struct {
	Coin string `json:"coin"`
	// HourlyRates are the interest rates per hour in percent, by term
	// in days ("7", "14", "30", "90").
	HourlyRates map[string]decimal.Decimal `json:"hourlyRates"`
	MinAmount   decimal.Decimal            `json:"minAmount"`
	MaxAmount   decimal.Decimal            `json:"maxAmount"`
}

// LoanConfig is the operator's loan settings.
type LoanConfig struct {
	LoanCoins   []LoanCoin `json:"loanCoins"`
	Collaterals []string   `json:"collaterals"`
	// LTVs as fractions: a loan is opened (and collateral taken back) up
	// to Initial; at MarginCall the user is warned; at Liquidation it is
	// liquidated. Defaults 0.65, 0.75, 0.83.
	InitialLTV     decimal.Decimal `json:"initialLTV"`
	MarginCallLTV  decimal.Decimal `json:"marginCallLTV"`
	LiquidationLTV decimal.Decimal `json:"liquidationLTV"`
	// GraceHours after the due time a loan may still be repaid, at
	// OverdueMultiplier × the rate; then it is liquidated.
	GraceHours        int             `json:"graceHours"`
	OverdueMultiplier decimal.Decimal `json:"overdueMultiplier"`
	// LiquidationFee is the part of the sale's proceeds kept as a fee.
	LiquidationFee decimal.Decimal `json:"liquidationFee"`
}

// DefaultLoanConfig is the operator's starting point (and the dev
// settings): USDT and BTC to borrow against BTC, ETH, TRX and TON.
func DefaultLoanConfig() LoanConfig {
	d := decimal.RequireFromString
	rates := func(a, b, c, e string) map[string]decimal.Decimal {
		return map[string]decimal.Decimal{"7": d(a), "14": d(b), "30": d(c), "90": d(e)}
	}
	return LoanConfig{
		LoanCoins: []LoanCoin{
			{Coin: "USDT", HourlyRates: rates("0.0012", "0.0011", "0.0010", "0.0009"), MinAmount: d("10"), MaxAmount: d("1000000")},
			{Coin: "BTC", HourlyRates: rates("0.0006", "0.00055", "0.0005", "0.00045"), MinAmount: d("0.0005"), MaxAmount: d("20")},
		},
		Collaterals: []string{"BTC", "ETH", "TRX", "TON"},
		InitialLTV:  d("0.65"), MarginCallLTV: d("0.75"), LiquidationLTV: d("0.83"),
		GraceHours: 72, OverdueMultiplier: d("3"), LiquidationFee: d("0.02"),
	}
}

// Check validates the settings.
func (c LoanConfig) Check(coins Coins) error {
	one := decimal.NewFromInt(1)
	if !(c.InitialLTV.IsPositive() && c.InitialLTV.LessThan(c.MarginCallLTV) && c.MarginCallLTV.LessThan(c.LiquidationLTV) && c.LiquidationLTV.LessThan(one)) {
		return errors.New("earn: loans: 0 < initialLTV < marginCallLTV < liquidationLTV < 1")
	}
	if c.GraceHours < 0 || c.OverdueMultiplier.LessThan(one) || c.LiquidationFee.IsNegative() || c.LiquidationFee.GreaterThanOrEqual(one) {
		return errors.New("earn: loans: graceHours ≥ 0, overdueMultiplier ≥ 1, 0 ≤ liquidationFee < 1")
	}
	for _, lc := range c.LoanCoins {
		if _, ok := coins.Coin(lc.Coin); !ok {
			return fmt.Errorf("earn: loans: unknown coin %s", lc.Coin)
		}
		for _, t := range LoanTerms {
			r, ok := lc.HourlyRates[strconv.Itoa(t)]
			if !ok || r.IsNegative() {
				return fmt.Errorf("earn: loans: %s needs an hourly rate for %d days", lc.Coin, t)
			}
		}
		if lc.MinAmount.IsNegative() || lc.MaxAmount.LessThan(lc.MinAmount) {
			return fmt.Errorf("earn: loans: %s: 0 ≤ minAmount ≤ maxAmount", lc.Coin)
		}
	}
	for _, cc := range c.Collaterals {
		if _, ok := coins.Coin(cc); !ok {
			return fmt.Errorf("earn: loans: unknown collateral %s", cc)
		}
	}
	return nil
}

const (
	loanCfgSK = "LOANCFG"
	// loanCfgSeenSK holds the settings every loan was last checked with.
	loanCfgSeenSK = "LOANCFGSEEN"
)

// PutLoanConfig sets the loan settings (the operator's call).
func (s *Service) PutLoanConfig(ctx context.Context, c LoanConfig) error {
	if err := c.Check(s.coins); err != nil {
		return err
	}
	return putConfig(ctx, s.st, loanCfgSK, c)
}

// LoanSettings reads the loan settings (the defaults when none are set).
func (s *Service) LoanSettings(ctx context.Context) (LoanConfig, error) {
	c, err := getConfig[LoanConfig](ctx, s.st, loanCfgSK)
	if errors.Is(err, ErrUnknownProduct) {
		return DefaultLoanConfig(), nil
	}
	return c, err
}

// Prices gives index prices: base in quote.
type Prices interface {
	PairPrice(ctx context.Context, base, quote string) (decimal.Decimal, bool, error)
}

// Seller sells collateral through the spot books for a liquidation. The
// volume of base sits in spotfunds.TransitAccount when it is called; when
// it returns, the proceeds (quote, fees paid) and what could not be sold
// (base) sit there. It is idempotent by ref: called again it answers what
// the first call did.
type Seller interface {
	Sell(ctx context.Context, ref, base, quote string, volume decimal.Decimal) (proceeds, unsold decimal.Decimal, err error)
}

// loanAccount holds a user's collateral.
func loanAccount(uid string) ledger.Account { return ledger.UserAccount(uid, ledger.Loan) }

// LendingAccount is the exchange's money lent out.
func LendingAccount() ledger.Account { return ledger.TreasuryAccount("loans") }

// loan is one loan, amounts in units of its coins.
type loan struct {
	uid, id              string
	coin, coll           string
	prec, collPrec       int32
	principal, interest  int64 // owed now
	repaidP, repaidI     int64
	collateral           int64
	term                 int64
	rate                 decimal.Decimal // percent per hour
	created, due         int64           // ms
	accrued              int64           // the last whole hour (Unix hours) interest was added for
	status               string
	marginCall           bool
	proceeds, unsold     int64
	liqStep              int64
	ver                  int64
	liqFeeUnits, repaidL int64
}

func loanKey(uid, id string) store.Key { return store.Key{PK: earnPK(uid), SK: "LOAN#" + id} }
func loanDuePK(shard int) string       { return fmt.Sprintf("LOANDUE#%02d", shard) }
func loanLiqPK(coll, coin string) string {
	return "LOANLIQ#" + coll + "-" + coin
}

// priceKey encodes a non-negative price so that keys sort as prices do.
func priceKey(p decimal.Decimal) string {
	u := p.Shift(12).Floor()
	if u.GreaterThanOrEqual(decimal.New(1, 36)) {
		return strings.Repeat("9", 36)
	}
	return fmt.Sprintf("%036s", u.String())
}

func (l *loan) debt() int64 { return l.principal + l.interest }

// liqPrice is the collateral price (in the loan coin) at which the loan
// reaches the liquidation LTV: debt ÷ (collateral × LTV).
func (l *loan) liqPrice(cfg LoanConfig) decimal.Decimal {
	if l.collateral == 0 {
		return decimal.New(1, 24)
	}
	return amountOf(l.debt(), l.prec).Div(amountOf(l.collateral, l.collPrec).Mul(cfg.LiquidationLTV))
}

func (l *loan) item(cfg LoanConfig) store.Item {
	k := loanKey(l.uid, l.id)
	it := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "uid": l.uid, "id": l.id, "coin": l.coin, "coll": l.coll,
		"prec": int64(l.prec), "collPrec": int64(l.collPrec), "principal": l.principal, "interest": l.interest,
		"repaidP": l.repaidP, "repaidI": l.repaidI, "collateral": l.collateral, "term": l.term, "rate": l.rate.String(),
		"created": l.created, "due": l.due, "accrued": l.accrued, "status": l.status, "proceeds": l.proceeds,
		"unsold": l.unsold, "liqStep": l.liqStep, "liqFee": l.liqFeeUnits, "repaidL": l.repaidL, store.AttrVersion: l.ver + 1}
	if l.marginCall {
		it["marginCall"] = int64(1)
	}
	switch l.status {
	case LoanActive:
		it[store.AttrGSI2PK] = loanDuePK(shardOf(l.uid, l.id))
		it[store.AttrGSI2SK] = fmt.Sprintf("%010d#%s#%s", l.accrued, l.uid, l.id)
	case LoanLiquidating:
		// Due at every run until it is done.
		it[store.AttrGSI2PK] = loanDuePK(shardOf(l.uid, l.id))
		it[store.AttrGSI2SK] = fmt.Sprintf("%010d#%s#%s", 0, l.uid, l.id)
	}
	if l.status == LoanActive {
		it[store.AttrGSI1PK] = loanLiqPK(l.coll, l.coin)
		it[store.AttrGSI1SK] = priceKey(l.liqPrice(cfg)) + "#" + l.uid + "#" + l.id
	}
	return it
}

func loanOf(it store.Item) *loan {
	rate, _ := decimal.NewFromString(it.Str("rate"))
	return &loan{uid: it.Str("uid"), id: it.Str("id"), coin: it.Str("coin"), coll: it.Str("coll"), prec: int32(it.Int("prec")),
		collPrec: int32(it.Int("collPrec")), principal: it.Int("principal"), interest: it.Int("interest"), repaidP: it.Int("repaidP"),
		repaidI: it.Int("repaidI"), collateral: it.Int("collateral"), term: it.Int("term"), rate: rate, created: it.Int("created"),
		due: it.Int("due"), accrued: it.Int("accrued"), status: it.Str("status"), marginCall: it.Int("marginCall") == 1,
		proceeds: it.Int("proceeds"), unsold: it.Int("unsold"), liqStep: it.Int("liqStep"), liqFeeUnits: it.Int("liqFee"),
		repaidL: it.Int("repaidL"), ver: it.Int(store.AttrVersion)}
}

func hourOf(t time.Time) int64 { return t.Unix() / 3600 }

// accrue adds the interest of every whole hour from the last one accrued
// to the one before now: rate × principal per hour, rounded up, at the
// overdue multiple for hours after the due time.
func (l *loan) accrue(now time.Time, cfg LoanConfig) {
	last := hourOf(now)
	for h := l.accrued + 1; h <= last; h++ {
		r := l.rate
		if h*3600*1000 > l.due {
			r = r.Mul(cfg.OverdueMultiplier)
		}
		i := amountOf(l.principal, 0).Mul(r).Div(decimal.NewFromInt(100)).Ceil().IntPart()
		l.interest += i
	}
	if last > l.accrued {
		l.accrued = last
	}
}

// ltv is the loan's LTV at a collateral price (in the loan coin).
func (l *loan) ltv(price decimal.Decimal) decimal.Decimal {
	v := amountOf(l.collateral, l.collPrec).Mul(price)
	if !v.IsPositive() {
		return decimal.New(1, 6)
	}
	return amountOf(l.debt(), l.prec).Div(v)
}

// BorrowInput is mortgage_borrow.
type BorrowInput struct {
	Coin, Amount, Collateral, CollateralAmount string
	Term                                       int
	RequestID                                  string
}

// price reads the index price of a collateral in a loan coin.
func (s *Service) price(ctx context.Context, coll, coin string) (decimal.Decimal, error) {
	if s.prices == nil {
		return decimal.Zero, errors.New("earn: no price source for loans")
	}
	p, ok, err := s.prices.PairPrice(ctx, coll, coin)
	if err != nil {
		return decimal.Zero, err
	}
	if !ok || !p.IsPositive() {
		return decimal.Zero, apperr.New(apperr.CodeLoanNoPrice, coll+"/"+coin)
	}
	return p, nil
}

// Borrow opens a loan: the collateral from spot into the loan account,
// the loan into spot, within the initial LTV.
func (s *Service) Borrow(ctx context.Context, uid string, in BorrowInput) (LoanView, error) {
	if uid == "" {
		return LoanView{}, apperr.New(apperr.CodeNotSignedIn)
	}
	cfg, err := s.LoanSettings(ctx)
	if err != nil {
		return LoanView{}, internal(err)
	}
	lc, rate, c1, c2, amount, err := s.loanRequest(cfg, in.Coin, in.Collateral, in.Amount, in.Term)
	if err != nil {
		return LoanView{}, err
	}
	coin, coll := c1.Symbol, c2.Symbol
	collateral, err := parseAmount(in.CollateralAmount, c2.Precision)
	if err != nil {
		return LoanView{}, err
	}
	if least, _ := units(lc.MinAmount, c1.Precision); amount < least {
		return LoanView{}, apperr.New(apperr.CodeEarnBelowMin, lc.MinAmount.String()+" "+coin)
	}
	if most, _ := units(lc.MaxAmount, c1.Precision); amount > most {
		return LoanView{}, apperr.New(apperr.CodeLoanTooMuch, lc.MaxAmount.String()+" "+coin)
	}
	reqID, err := checkRequestID(in.RequestID)
	if err != nil {
		return LoanView{}, err
	}
	now := s.now()
	l := &loan{uid: uid, id: opID("l", reqID), coin: coin, coll: coll, prec: c1.Precision, collPrec: c2.Precision, principal: amount,
		collateral: collateral, term: int64(in.Term), rate: rate, created: now.UnixMilli(),
		due: now.Add(time.Duration(in.Term) * 24 * time.Hour).UnixMilli(), accrued: hourOf(now), status: LoanActive}
	if it, err := s.st.Get(ctx, loanKey(uid, l.id)); err == nil {
		return s.loanView(loanOf(it), cfg, decimal.Zero), nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return LoanView{}, internal(err)
	}
	price, err := s.price(ctx, coll, coin)
	if err != nil {
		return LoanView{}, internal(err)
	}
	if l.ltv(price).GreaterThan(cfg.InitialLTV) {
		return LoanView{}, apperr.New(apperr.CodeLoanLTV, cfg.InitialLTV.Shift(2).String()+"%")
	}
	// The collateral: spot → transit (the engine), then transit → the
	// loan account with the loan's record (its pending op resumes it).
	o := &op{id: l.id, uid: uid, prod: "loan", coin: coll, kind: opBorrow, amount: collateral, status: opPending, ctime: l.created, reqID: reqID}
	if err := s.st.Put(ctx, o.item(c2.Precision), store.ItemNotExists()); err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			return LoanView{}, apperr.New(apperr.CodeEarnBusy)
		}
		return LoanView{}, internal(err)
	}
	if err := s.takeFromSpot(ctx, o, c2.Precision, ReasonLoanCollateral); err != nil {
		return LoanView{}, err
	}
	pay := &op{id: "pay-" + l.id, uid: uid, prod: "loan", coin: coin, kind: opPayout, amount: amount, status: opPending, ctime: l.created}
	at := l.created
	_, err = s.led.Post(ctx, ledger.Posting{ID: "earn:loan:" + l.id + ":open", Reason: ReasonLoanOpen,
		Legs: []ledger.Leg{
			{From: spotfunds.TransitAccount(), FromBucket: ledger.Available, To: loanAccount(uid), ToBucket: ledger.Frozen, Coin: coll, Amount: amountOf(collateral, c2.Precision)},
			ledger.Move(LendingAccount(), spotfunds.TransitAccount(), coin, amountOf(amount, c1.Precision)),
		},
		Extra: []store.Op{store.PutOp(l.item(cfg), store.ItemNotExists()), o.doneOp(opSuccess), store.PutOp(pay.item(c1.Precision), store.ItemNotExists()),
			store.PutOp(logItem(uid, logEntry{ID: l.id, Type: LogLoanOpen, Product: l.id, Coin: coin, Amount: fixed(amount, c1.Precision), Day: DayOf(now), At: at}), nil)},
		Meta: map[string]string{"uid": uid, "loan": l.id}})
	if err != nil {
		return LoanView{}, internal(err)
	}
	if err := s.finishOp(context.WithoutCancel(ctx), pay, c1.Precision); err != nil {
		s.log.Warn().Err(err).Str("loan", l.id).Msg("loan credit left for the resume run")
	}
	l.ver++
	return s.loanView(l, cfg, price), nil
}

// loanRequest reads what a quote and a borrow name: a coin the settings
// lend against a collateral they take, a term with its hourly rate, and
// the amount in the coin's units.
func (s *Service) loanRequest(cfg LoanConfig, rawCoin, rawColl, rawAmount string, term int) (LoanCoin, decimal.Decimal, coins.Coin, coins.Coin, int64, error) {
	coin, coll := strings.ToUpper(strings.TrimSpace(rawCoin)), strings.ToUpper(strings.TrimSpace(rawColl))
	i := slices.IndexFunc(cfg.LoanCoins, func(c LoanCoin) bool { return c.Coin == coin })
	c1, ok1 := s.coins.Coin(coin)
	c2, ok2 := s.coins.Coin(coll)
	if i < 0 || !slices.Contains(cfg.Collaterals, coll) || coin == coll || !ok1 || !ok2 {
		return LoanCoin{}, decimal.Zero, coins.Coin{}, coins.Coin{}, 0, apperr.New(apperr.CodeLoanPair, coin, coll)
	}
	rate, ok := cfg.LoanCoins[i].HourlyRates[strconv.Itoa(term)]
	if !ok {
		return LoanCoin{}, decimal.Zero, coins.Coin{}, coins.Coin{}, 0, apperr.New(apperr.CodeLoanTerm)
	}
	amount, err := parseAmount(rawAmount, c1.Precision)
	if err != nil {
		return LoanCoin{}, decimal.Zero, coins.Coin{}, coins.Coin{}, 0, err
	}
	return cfg.LoanCoins[i], rate, c1, c2, amount, nil
}

// finishBorrow ends a borrow whose collateral step stopped half way: the
// collateral goes back to spot (the loan was never opened).
func (s *Service) finishBorrow(ctx context.Context, o *op, prec int32) error {
	if _, err := s.st.Get(ctx, loanKey(o.uid, o.id)); err == nil {
		return s.markDone(ctx, o, opSuccess)
	}
	if err := s.takeFromSpot(ctx, o, prec, ReasonLoanCollateral); err != nil {
		return err
	}
	return s.refund(ctx, o, prec)
}

// withLoan runs fn on a user's active loan, settled to now (interest
// accrued), and writes what fn changed with the posting fn returns.
func (s *Service) withLoan(ctx context.Context, uid, id string, fn func(l *loan, cfg LoanConfig, price decimal.Decimal) (*ledger.Posting, []*op, error)) (LoanView, error) {
	if uid == "" {
		return LoanView{}, apperr.New(apperr.CodeNotSignedIn)
	}
	cfg, err := s.LoanSettings(ctx)
	if err != nil {
		return LoanView{}, internal(err)
	}
	for range maxAttempts {
		it, err := s.st.Get(ctx, loanKey(uid, strings.TrimSpace(id)))
		if errors.Is(err, store.ErrNotFound) {
			return LoanView{}, apperr.New(apperr.CodeLoanUnknown, strings.TrimSpace(id))
		}
		if err != nil {
			return LoanView{}, internal(err)
		}
		l := loanOf(it)
		if l.status != LoanActive {
			return LoanView{}, apperr.New(apperr.CodeLoanEnded)
		}
		ver := l.ver
		l.accrue(s.now(), cfg)
		price, err := s.price(ctx, l.coll, l.coin)
		if err != nil {
			return LoanView{}, err
		}
		p, pays, err := fn(l, cfg, price)
		if err != nil {
			return LoanView{}, err
		}
		l.ver = ver
		p.Extra = append([]store.Op{store.PutOp(l.item(cfg), store.VersionIs(ver))}, p.Extra...)
		_, err = s.led.Post(ctx, *p)
		switch {
		case errors.Is(err, store.ErrConditionFailed):
			continue
		case err != nil:
			return LoanView{}, internal(err)
		}
		for _, o := range pays {
			if err := s.finishOp(context.WithoutCancel(ctx), o, s.precOf(l, o.coin)); err != nil {
				s.log.Warn().Err(err).Str("op", o.id).Msg("loan payout left for the resume run")
			}
		}
		l.ver++
		return s.loanView(l, cfg, price), nil
	}
	return LoanView{}, apperr.New(apperr.CodeEarnBusy)
}

func (s *Service) precOf(l *loan, coin string) int32 {
	if coin == l.coll {
		return l.collPrec
	}
	return l.prec
}

// Repay pays a loan back from spot, interest first; in full, the
// collateral returns to spot and the loan closes. The amount is capped
// at what is owed.
func (s *Service) Repay(ctx context.Context, uid, id, rawAmount, reqID string) (LoanView, error) {
	reqID, err := checkRequestID(reqID)
	if err != nil {
		return LoanView{}, err
	}
	var taken *op
	return s.withLoan(ctx, uid, id, func(l *loan, cfg LoanConfig, _ decimal.Decimal) (*ledger.Posting, []*op, error) {
		amount, err := parseAmount(rawAmount, l.prec)
		if err != nil {
			return nil, nil, err
		}
		amount = min(amount, l.debt())
		// The payment leaves spot first (once per request id).
		if taken == nil {
			taken = &op{id: opID("p", reqID), uid: uid, prod: l.id, coin: l.coin, kind: opTake, amount: amount, status: opPending, ctime: s.now().UnixMilli(), reqID: reqID}
			if err := s.st.Put(ctx, taken.item(l.prec), store.ItemNotExists()); err != nil {
				if errors.Is(err, store.ErrConditionFailed) {
					return nil, nil, apperr.New(apperr.CodeEarnRequestReused)
				}
				return nil, nil, err
			}
			if err := s.takeFromSpot(ctx, taken, l.prec, ReasonLoanRepay); err != nil {
				return nil, nil, err
			}
		}
		amount = taken.amount
		payI := min(amount, l.interest)
		payP := min(amount-payI, l.principal)
		l.interest -= payI
		l.principal -= payP
		l.repaidI += payI
		l.repaidP += payP
		legs := []ledger.Leg{}
		if payP > 0 {
			legs = append(legs, ledger.Move(spotfunds.TransitAccount(), LendingAccount(), l.coin, amountOf(payP, l.prec)))
		}
		if payI > 0 {
			legs = append(legs, ledger.Move(spotfunds.TransitAccount(), ledger.FeeAccount(), l.coin, amountOf(payI, l.prec)))
		}
		extra := []store.Op{taken.doneOp(opSuccess), store.PutOp(logItem(uid, logEntry{ID: taken.id, Type: LogLoanRepay, Product: l.id, Coin: l.coin,
			Amount: fixed(payI+payP, l.prec), Day: DayOf(s.now()), At: s.now().UnixMilli()}), nil)}
		var pays []*op
		if l.debt() == 0 {
			l.status = LoanRepaid
			back := &op{id: "back-" + l.id, uid: uid, prod: l.id, coin: l.coll, kind: opPayout, amount: l.collateral, status: opPending, ctime: s.now().UnixMilli()}
			legs = append(legs, ledger.Leg{From: loanAccount(uid), FromBucket: ledger.Frozen, To: spotfunds.TransitAccount(), ToBucket: ledger.Available,
				Coin: l.coll, Amount: amountOf(l.collateral, l.collPrec)})
			extra = append(extra, store.PutOp(back.item(l.collPrec), store.ItemNotExists()))
			pays = append(pays, back)
		}
		return &ledger.Posting{ID: "earn:loan:" + l.id + ":" + taken.id, Reason: ReasonLoanRepay, Legs: legs, Extra: extra,
			Meta: map[string]string{"uid": uid, "loan": l.id}}, pays, nil
	})
}

// AdjustCollateral adds collateral from spot (add) or takes it back to
// spot within the initial LTV.
func (s *Service) AdjustCollateral(ctx context.Context, uid, id, rawAmount string, add bool, reqID string) (LoanView, error) {
	reqID, err := checkRequestID(reqID)
	if err != nil {
		return LoanView{}, err
	}
	var taken *op
	return s.withLoan(ctx, uid, id, func(l *loan, cfg LoanConfig, price decimal.Decimal) (*ledger.Posting, []*op, error) {
		amount, err := parseAmount(rawAmount, l.collPrec)
		if err != nil {
			return nil, nil, err
		}
		at := s.now().UnixMilli()
		logE := logEntry{Type: LogLoanCollateral, Product: l.id, Coin: l.coll, Amount: fixed(amount, l.collPrec), Day: DayOf(s.now()), At: at}
		if add {
			if taken == nil {
				taken = &op{id: opID("a", reqID), uid: uid, prod: l.id, coin: l.coll, kind: opTake, amount: amount, status: opPending, ctime: at, reqID: reqID}
				if err := s.st.Put(ctx, taken.item(l.collPrec), store.ItemNotExists()); err != nil {
					if errors.Is(err, store.ErrConditionFailed) {
						return nil, nil, apperr.New(apperr.CodeEarnRequestReused)
					}
					return nil, nil, err
				}
				if err := s.takeFromSpot(ctx, taken, l.collPrec, ReasonLoanCollateral); err != nil {
					return nil, nil, err
				}
			}
			l.collateral += taken.amount
			if l.ltv(price).LessThan(cfg.MarginCallLTV) {
				l.marginCall = false
			}
			logE.ID = taken.id
			return &ledger.Posting{ID: "earn:loan:" + l.id + ":" + taken.id, Reason: ReasonLoanCollateral,
				Legs: []ledger.Leg{{From: spotfunds.TransitAccount(), FromBucket: ledger.Available, To: loanAccount(uid), ToBucket: ledger.Frozen,
					Coin: l.coll, Amount: amountOf(taken.amount, l.collPrec)}},
				Extra: []store.Op{taken.doneOp(opSuccess), store.PutOp(logItem(uid, logE), nil)}}, nil, nil
		}
		if amount >= l.collateral {
			return nil, nil, apperr.New(apperr.CodeLoanLTV, cfg.InitialLTV.Shift(2).String()+"%")
		}
		l.collateral -= amount
		if l.ltv(price).GreaterThan(cfg.InitialLTV) {
			return nil, nil, apperr.New(apperr.CodeLoanLTV, cfg.InitialLTV.Shift(2).String()+"%")
		}
		back := &op{id: opID("w", reqID), uid: uid, prod: l.id, coin: l.coll, kind: opPayout, amount: amount, status: opPending, ctime: at, reqID: reqID}
		logE.ID, logE.Amount = back.id, "-"+logE.Amount
		return &ledger.Posting{ID: "earn:loan:" + l.id + ":" + back.id, Reason: ReasonLoanCollateral,
			Legs: []ledger.Leg{{From: loanAccount(uid), FromBucket: ledger.Frozen, To: spotfunds.TransitAccount(), ToBucket: ledger.Available,
				Coin: l.coll, Amount: amountOf(amount, l.collPrec)}},
			Extra: []store.Op{store.PutOp(back.item(l.collPrec), store.ItemNotExists()), store.PutOp(logItem(uid, logE), nil)}}, []*op{back}, nil
	})
}

// runLoan accrues a loan's interest, checks its LTV and liquidates it
// when it must (the run calls it for every loan due an hour's interest
// and every loan the price index finds at its liquidation price).
func (s *Service) runLoan(ctx context.Context, key store.Key, cfg LoanConfig) error {
	for range maxAttempts {
		it, err := s.st.Get(ctx, key)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		l := loanOf(it)
		switch l.status {
		case LoanLiquidating:
			return s.liquidate(ctx, l, cfg)
		case LoanActive:
		default:
			return nil
		}
		ver := l.ver
		l.accrue(s.now(), cfg)
		price, err := s.price(ctx, l.coll, l.coin)
		if err != nil {
			return err
		}
		ltv := l.ltv(price)
		overdue := s.now().UnixMilli() > l.due+int64(cfg.GraceHours)*3600*1000
		l.marginCall = ltv.GreaterThanOrEqual(cfg.MarginCallLTV)
		if ltv.GreaterThanOrEqual(cfg.LiquidationLTV) || overdue {
			l.status = LoanLiquidating
		}
		l.ver = ver
		if err := s.st.Put(ctx, l.item(cfg), store.VersionIs(ver)); err != nil {
			if errors.Is(err, store.ErrConditionFailed) {
				continue
			}
			return err
		}
		l.ver++
		if l.status == LoanLiquidating {
			return s.liquidate(ctx, l, cfg)
		}
		return nil
	}
	return fmt.Errorf("earn: loan %s kept changing", key.SK)
}

// liquidate sells a loan's collateral and settles it, step by step, each
// safe to do again: 1 the collateral to transit; 2 sold (Seller, by the
// loan's reference); 3 the debt and the fee paid from the proceeds, the
// rest and any unsold collateral back to spot.
func (s *Service) liquidate(ctx context.Context, l *loan, cfg LoanConfig) error {
	ref := "earn:loan:" + l.id + ":liq"
	if l.liqStep < 1 {
		q := *l
		q.liqStep = 1
		_, err := s.led.Post(ctx, ledger.Posting{ID: ref + ":out", Reason: ReasonLoanLiquidation,
			Legs: []ledger.Leg{{From: loanAccount(l.uid), FromBucket: ledger.Frozen, To: spotfunds.TransitAccount(), ToBucket: ledger.Available,
				Coin: l.coll, Amount: amountOf(l.collateral, l.collPrec)}},
			Extra: []store.Op{store.PutOp(q.item(cfg), store.VersionIs(l.ver))}, Meta: map[string]string{"uid": l.uid, "loan": l.id}})
		if err != nil {
			if errors.Is(err, store.ErrConditionFailed) {
				return nil // changed meanwhile: the next run goes on
			}
			return err
		}
		q.ver++
		*l = q
	}
	if l.liqStep < 2 {
		if s.seller == nil {
			return errors.New("earn: no seller for liquidations")
		}
		proceeds, unsold, err := s.seller.Sell(ctx, ref, l.coll, l.coin, amountOf(l.collateral, l.collPrec))
		if err != nil {
			return err
		}
		q := *l
		q.proceeds, _ = units(proceeds.Truncate(l.prec), l.prec)
		q.unsold, _ = units(unsold.Truncate(l.collPrec), l.collPrec)
		q.liqStep = 2
		if err := s.st.Put(ctx, q.item(cfg), store.VersionIs(l.ver)); err != nil {
			return err
		}
		q.ver++
		*l = q
	}
	// Step 3: from the proceeds the fee, then the interest and the
	// principal; the rest to the user; a shortfall stays with the lender.
	at := s.now().UnixMilli()
	fee := amountOf(l.proceeds, 0).Mul(cfg.LiquidationFee).Ceil().IntPart()
	left := l.proceeds - fee
	payI := min(left, l.interest)
	payP := min(left-payI, l.principal)
	rest := left - payI - payP
	q := *l
	q.status, q.liqFeeUnits = LoanLiquidated, fee
	q.repaidI += payI
	q.repaidP += payP
	q.repaidL = l.principal - payP // the lender's loss
	q.interest, q.principal = 0, 0
	var legs []ledger.Leg
	add := func(to ledger.Account, coin string, u int64, prec int32) {
		if u > 0 {
			legs = append(legs, ledger.Move(spotfunds.TransitAccount(), to, coin, amountOf(u, prec)))
		}
	}
	add(ledger.FeeAccount(), l.coin, fee+payI, l.prec)
	add(LendingAccount(), l.coin, payP, l.prec)
	var pays []*op
	extra := []store.Op{store.PutOp(q.item(cfg), store.VersionIs(l.ver)),
		store.PutOp(logItem(l.uid, logEntry{ID: "liq-" + l.id, Type: LogLoanLiquidation, Product: l.id, Coin: l.coll,
			Amount: fixed(l.collateral-l.unsold, l.collPrec), Day: DayOf(s.now()), At: at}), nil)}
	for _, p := range []struct {
		coin string
		u    int64
		prec int32
		what string
	}{{l.coin, rest, l.prec, "rest"}, {l.coll, l.unsold, l.collPrec, "unsold"}} {
		if p.u > 0 {
			o := &op{id: "liq-" + p.what + "-" + l.id, uid: l.uid, prod: l.id, coin: p.coin, kind: opPayout, amount: p.u, status: opPending, ctime: at}
			extra = append(extra, store.PutOp(o.item(p.prec), store.ItemNotExists()))
			pays = append(pays, o)
		}
	}
	// The transit holds the rest and the unsold part until their payouts.
	_, err := s.led.Post(ctx, ledger.Posting{ID: ref + ":settle", Reason: ReasonLoanLiquidation, Legs: legs, Extra: extra,
		Meta: map[string]string{"uid": l.uid, "loan": l.id}})
	if err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			return nil
		}
		return err
	}
	for _, o := range pays {
		if err := s.finishOp(ctx, o, s.precOf(l, o.coin)); err != nil {
			s.log.Warn().Err(err).Str("op", o.id).Msg("liquidation payout left for the resume run")
		}
	}
	q.ver++
	*l = q
	return nil
}

// RunLoans accrues interest, checks LTVs and liquidates: every active
// loan due an hour's interest (the due index), and every loan whose
// collateral price is at or below its liquidation price (the price index:
// each collateral/loan pair read from its current price up, never a scan
// of all loans).
func (s *Service) RunLoans(ctx context.Context) (int, error) {
	cfg, err := s.LoanSettings(ctx)
	if err != nil {
		return 0, err
	}
	seen := map[store.Key]bool{}
	var errs []error
	run := func(k store.Key) {
		if seen[k] {
			return
		}
		seen[k] = true
		if err := s.runLoan(ctx, k, cfg); err != nil {
			errs = append(errs, err)
		}
	}
	// New settings reach every loan at the next run (their LTVs and
	// liquidation prices change): all of them are checked once.
	b, _ := json.Marshal(cfg)
	seen2, err := s.st.Get(ctx, store.Key{PK: statePK, SK: loanCfgSeenSK})
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return 0, err
	}
	all := seen2.Str("doc") != string(b)
	due := store.SKCond{Kind: store.SKLt, A: fmt.Sprintf("%010d", hourOf(s.now()))}
	if all {
		due = store.SKCond{}
	}
	for shard := range shards {
		err := store.EachLive(ctx, s.st, store.Query{Index: store.IndexGSI2, PK: loanDuePK(shard), SK: due}, s.now(),
			func(it store.Item) { run(it.Key()) })
		if err != nil {
			errs = append(errs, err)
		}
	}
	if all && len(errs) == 0 {
		if err := s.st.Put(ctx, store.Item{store.AttrPK: statePK, store.AttrSK: loanCfgSeenSK, "doc": string(b)}, nil); err != nil {
			errs = append(errs, err)
		}
	}
	for _, lc := range cfg.LoanCoins {
		for _, coll := range cfg.Collaterals {
			if coll == lc.Coin {
				continue
			}
			p, ok, err := s.prices.PairPrice(ctx, coll, lc.Coin)
			if err != nil || !ok {
				continue
			}
			err = store.EachLive(ctx, s.st, store.Query{Index: store.IndexGSI1, PK: loanLiqPK(coll, lc.Coin),
				SK: store.SKCond{Kind: store.SKGe, A: priceKey(p)}}, s.now(), func(it store.Item) { run(it.Key()) })
			if err != nil {
				errs = append(errs, err)
			}
		}
	}
	return len(seen), errors.Join(errs...)
}

// LoanView is a loan as the crypto cash pages show it.
type LoanView struct {
	ID               string `json:"id"`
	Coin             string `json:"coin"`
	Borrowed         string `json:"borrowed" doc:"principal borrowed"`
	Principal        string `json:"principal" doc:"principal owed now"`
	Interest         string `json:"interest" doc:"interest owed now"`
	Debt             string `json:"debt" doc:"principal + interest owed"`
	RepaidPrincipal  string `json:"repaidPrincipal"`
	RepaidInterest   string `json:"repaidInterest"`
	CollateralCoin   string `json:"collateralCoin"`
	Collateral       string `json:"collateral"`
	TermDays         int64  `json:"termDays"`
	HourlyRate       string `json:"hourlyRate" doc:"percent per hour"`
	YearRate         string `json:"yearRate" doc:"hourly × 24 × 365, percent"`
	Created          int64  `json:"ctime" doc:"Unix ms"`
	Due              int64  `json:"dueTime" doc:"Unix ms; after it the rate is multiplied for the grace period"`
	Status           string `json:"status" doc:"pending_repayment, liquidating, repaid or liquidated"`
	LTV              string `json:"ltv" doc:"(principal + interest) ÷ collateral at the index price, percent; empty once closed"`
	MarginCall       bool   `json:"marginCall" doc:"the LTV reached the margin-call LTV: add collateral or repay"`
	LiquidationPrice string `json:"liquidationPrice" doc:"the collateral's price in the loan coin at which it is liquidated"`
	Overdue          bool   `json:"overdue"`
	SoldCollateral   string `json:"soldCollateral,omitempty" doc:"liquidated: collateral sold"`
	Proceeds         string `json:"proceeds,omitempty" doc:"liquidated: what the sale brought"`
	LiquidationFee   string `json:"liquidationFee,omitempty"`
}

func (s *Service) loanView(l *loan, cfg LoanConfig, price decimal.Decimal) LoanView {
	v := LoanView{ID: l.id, Coin: l.coin, Borrowed: fixed(l.principal+l.repaidP+l.repaidL, l.prec), Principal: fixed(l.principal, l.prec),
		Interest: fixed(l.interest, l.prec), Debt: fixed(l.debt(), l.prec), RepaidPrincipal: fixed(l.repaidP, l.prec),
		RepaidInterest: fixed(l.repaidI, l.prec), CollateralCoin: l.coll, Collateral: fixed(l.collateral, l.collPrec), TermDays: l.term,
		HourlyRate: l.rate.String(), YearRate: l.rate.Mul(decimal.NewFromInt(24 * 365)).StringFixed(2), Created: l.created, Due: l.due,
		Status: l.status, MarginCall: l.marginCall, Overdue: s.now().UnixMilli() > l.due}
	if l.status == LoanActive {
		v.LiquidationPrice = l.liqPrice(cfg).StringFixed(8)
		if price.IsPositive() {
			v.LTV = l.ltv(price).Shift(2).StringFixed(2)
		}
	}
	if l.status == LoanLiquidated {
		v.SoldCollateral = fixed(l.collateral-l.unsold, l.collPrec)
		v.Proceeds = fixed(l.proceeds, l.prec)
		v.LiquidationFee = fixed(l.liqFeeUnits, l.prec)
	}
	return v
}

// Loans lists the caller's loans, newest first, each settled to now for
// the view (nothing written).
func (s *Service) Loans(ctx context.Context, uid string) ([]LoanView, error) {
	if uid == "" {
		return nil, apperr.New(apperr.CodeNotSignedIn)
	}
	cfg, err := s.LoanSettings(ctx)
	if err != nil {
		return nil, internal(err)
	}
	var out []LoanView
	err = store.EachLive(ctx, s.st, store.Query{PK: earnPK(uid), SK: store.SKCond{Kind: store.SKPrefix, A: "LOAN#"}}, s.now(), func(it store.Item) {
		l := loanOf(it)
		price := decimal.Zero
		if l.status == LoanActive {
			l.accrue(s.now(), cfg)
			price, _ = s.price(ctx, l.coll, l.coin)
		}
		out = append(out, s.loanView(l, cfg, price))
	})
	if err != nil {
		return nil, internal(err)
	}
	slices.SortStableFunc(out, func(a, b LoanView) int { return int(b.Created - a.Created) })
	if out == nil {
		out = []LoanView{}
	}
	return out, nil
}

// LoanQuote is calculate_inerest_mortgage's answer.
type LoanQuote struct {
	Coin               string `json:"coin"`
	Amount             string `json:"amount"`
	TermDays           int    `json:"termDays"`
	HourlyRate         string `json:"hourlyRate" doc:"percent per hour"`
	Interest           string `json:"interest" doc:"interest over the whole term, paid back with the loan"`
	Collateral         string `json:"collateralCoin"`
	Price              string `json:"price" doc:"the collateral's index price in the loan coin"`
	RequiredCollateral string `json:"requiredCollateral" doc:"the least collateral at the initial LTV"`
	LiquidationPrice   string `json:"liquidationPrice" doc:"with the required collateral, the price at which it would be liquidated"`
}

// Quote works a loan out before it is taken: the term's interest and the
// collateral it needs at the initial LTV.
func (s *Service) Quote(ctx context.Context, coin, rawAmount, coll string, term int) (LoanQuote, error) {
	cfg, err := s.LoanSettings(ctx)
	if err != nil {
		return LoanQuote{}, internal(err)
	}
	_, rate, c1, c2, amount, err := s.loanRequest(cfg, coin, coll, rawAmount, term)
	if err != nil {
		return LoanQuote{}, err
	}
	coin, coll = c1.Symbol, c2.Symbol
	price, err := s.price(ctx, coll, coin)
	if err != nil {
		return LoanQuote{}, err
	}
	hourly := amountOf(amount, 0).Mul(rate).Div(decimal.NewFromInt(100)).Ceil().IntPart()
	hours := int64(term) * 24
	need := amountOf(amount, c1.Precision).Div(price.Mul(cfg.InitialLTV)).Shift(c2.Precision).Ceil().IntPart()
	l := loan{principal: amount, prec: c1.Precision, collateral: need, collPrec: c2.Precision}
	return LoanQuote{Coin: coin, Amount: fixed(amount, c1.Precision), TermDays: term, HourlyRate: rate.String(),
		Interest: fixed(hourly*hours, c1.Precision), Collateral: coll, Price: price.String(),
		RequiredCollateral: fixed(need, c2.Precision), LiquidationPrice: l.liqPrice(cfg).StringFixed(8)}, nil
}

// CollateralPrice is one collateral coin with its index prices in the
// loan coins (getMortgageSymbolList).
type CollateralPrice struct {
	Coin   string            `json:"coin"`
	Icon   string            `json:"icon"`
	Prices map[string]string `json:"prices" doc:"index price in each loan coin"`
}

// Collaterals lists the collateral coins with their prices.
func (s *Service) Collaterals(ctx context.Context) ([]CollateralPrice, error) {
	cfg, err := s.LoanSettings(ctx)
	if err != nil {
		return nil, internal(err)
	}
	out := []CollateralPrice{}
	for _, cc := range cfg.Collaterals {
		c, _ := s.coins.Coin(cc)
		row := CollateralPrice{Coin: cc, Icon: c.Icon, Prices: map[string]string{}}
		for _, lc := range cfg.LoanCoins {
			if lc.Coin == cc || s.prices == nil {
				continue
			}
			if p, ok, err := s.prices.PairPrice(ctx, cc, lc.Coin); err == nil && ok {
				row.Prices[lc.Coin] = p.String()
			}
		}
		out = append(out, row)
	}
	return out, nil
}
