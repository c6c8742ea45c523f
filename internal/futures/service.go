package futures

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/contracts"
	"tenger/internal/engine"
	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/matching"
	"tenger/internal/perp"
	"tenger/internal/risk"
	"tenger/internal/spot"
	"tenger/internal/store"
)

// ServiceOptions configure the futures service.
type ServiceOptions struct {
	Store     store.Store
	Contracts *contracts.Catalogue
	// Engine applies commands (spot.Runtime in one process; the engine
	// task's endpoint in AWS).
	Engine   spot.EngineClient
	Decimals func(coin string) int32
	Log      zerolog.Logger
	Now      func() time.Time
}

// Service is the futures service of /fe-co-api: the contracts, order
// entry, leverage and margin, and the caller's account, orders, fills and
// positions as the store projection shows them.
type Service struct {
	o   ServiceOptions
	led *ledger.Ledger
	ctr atomic.Uint64
	// opened remembers the users seen with an opened futures account:
	// opening is for good, so an order need not read it again.
	opened sync.Map
}

// NewService returns the service.
func NewService(o ServiceOptions) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Service{o: o, led: ledger.New(o.Store, o.Now)}
	var b [8]byte
	_, _ = rand.Read(b[:])
	s.ctr.Store(binary.LittleEndian.Uint64(b[:]))
	return s
}

// PriceBand is how far from the mark a limit order may cross (a buy no
// higher than mark × (1 + band), a sell no lower than mark × (1 − band)),
// and the limit a market order is sent at.
var PriceBand = decimal.New(engine.MarketBandPercent, -2)

// Contract resolves a contract by symbol ("BTCUSDT", "btcusdt", "BTC_USDT") or number.
func (s *Service) Contract(symbol string) (contracts.Contract, error) {
	symbol = strings.TrimSpace(symbol)
	if c, ok := s.o.Contracts.Contract(symbol); ok {
		return c, nil
	}
	if n, err := strconv.Atoi(symbol); err == nil {
		if c, ok := s.o.Contracts.ByID(n); ok {
			return c, nil
		}
	}
	return contracts.Contract{}, apperr.New(apperr.CodeFuturesSymbol, symbol)
}

func decimalsOf(d decimal.Decimal) int32 { return max(0, -d.Exponent()) }

// PublicInfo lists the contracts.
func (s *Service) PublicInfo() PublicInfo {
	out := PublicInfo{Contracts: []ContractInfo{}, ServerTime: s.o.Now().UnixMilli()}
	coins := map[string]bool{}
	for _, c := range s.o.Contracts.List() {
		status := "open"
		if c.Closed {
			status = "closed"
		}
		out.Contracts = append(out.Contracts, ContractInfo{ID: c.ID, Symbol: c.Symbol, MarketSymbol: MarketSymbol(c), Base: c.Base,
			Quote: c.Quote, MarginCoin: c.Quote, ContractValue: c.ContractValue.String(), PriceTick: c.PriceTick.String(),
			PricePrecision: decimalsOf(c.PriceTick), SizePrecision: decimalsOf(c.ContractValue), MinQty: max(c.MinQty, 1),
			MaxOrderQty: c.MaxOrderQty, MaxLeverage: c.MaxLeverage(), MakerFee: c.MakerFee.String(), TakerFee: c.TakerFee.String(),
			LiquidationFee: c.LiquidationFee.String(), FundingIntervalHours: c.FundingIntervalHours, FundingCap: c.FundingCap.String(),
			InterestRate: c.InterestRate.String(), Status: status})
		if !coins[c.Quote] {
			coins[c.Quote] = true
			out.MarginCoins = append(out.MarginCoins, c.Quote)
		}
	}
	return out
}

// Ladder is a contract's tier table.
func (s *Service) Ladder(symbol string) ([]Tier, error) {
	c, err := s.Contract(symbol)
	if err != nil {
		return nil, err
	}
	g, err := c.Grid(s.o.Decimals(c.Quote))
	if err != nil {
		return nil, err
	}
	dec := s.o.Decimals(c.Quote)
	out := make([]Tier, len(g.Tiers))
	floor := decimal.Zero
	for i, t := range g.Tiers {
		out[i] = Tier{Tier: i + 1, MinNotional: floor.String(), MaxNotional: c.Tiers[i].Cap.String(),
			MaintenanceRate: c.Tiers[i].MMR.String(), MaxLeverage: t.MaxLeverage, Cum: decimal.New(t.Cum, -dec).String()}
		floor = c.Tiers[i].Cap
	}
	return out, nil
}

// prices is a contract's price item.
type prices struct {
	mark, index, last decimal.Decimal
	markTicks         int64
	item              store.Item
}

func (s *Service) prices(ctx context.Context, c contracts.Contract) (prices, error) {
	it, err := s.o.Store.Get(ctx, store.Key{PK: pkPrice + c.Symbol, SK: skPrice})
	if errors.Is(err, store.ErrNotFound) {
		return prices{}, nil
	}
	if err != nil {
		return prices{}, err
	}
	p := prices{mark: it.Dec("mark"), index: it.Dec("index"), last: it.Dec("last"), item: it}
	p.markTicks = p.mark.Div(c.PriceTick).Round(0).IntPart()
	return p, nil
}

func decText(d decimal.Decimal, places int32) string {
	if d.IsZero() {
		return decimal.Zero.StringFixed(places)
	}
	return d.StringFixed(places)
}

// MarketInfo is a contract's prices and, from tickers (nil: none), its
// 24 h figures.
func (s *Service) MarketInfo(ctx context.Context, symbol string, tickers Tickers) (MarketInfo, error) {
	c, err := s.Contract(symbol)
	if err != nil {
		return MarketInfo{}, err
	}
	var t marketdata.Ticker
	if tickers != nil {
		if t, err = tickers.Ticker(MarketSymbol(c)); err != nil {
			return MarketInfo{}, err
		}
	}
	return s.marketInfo(ctx, c, t)
}

// marketInfo is a contract's prices (its price item, as the mark channel
// shows them: markOf) and its 24 h figures from its ticker t.
func (s *Service) marketInfo(ctx context.Context, c contracts.Contract, t marketdata.Ticker) (MarketInfo, error) {
	p, err := s.prices(ctx, c)
	if err != nil {
		return MarketInfo{}, err
	}
	pp := decimalsOf(c.PriceTick)
	m := MarketInfo{Symbol: c.Symbol, FundingRate: "0", LastFundingRate: "0", InsuranceFund: "0"}
	set24h(&m, c, t, min(s.o.Decimals(c.Quote), 8))
	if p.item == nil {
		return m, nil
	}
	mk := markOf(c, p.item)
	m.MarkPrice, m.IndexPrice = mk.MarkPrice, mk.IndexPrice
	if !p.last.IsZero() {
		m.LastPrice = decText(p.last, pp)
	}
	m.FundingRate, m.LastFundingRate = mk.FundingRate, mk.LastFundingRate
	m.NextFundingTime, m.Time = mk.NextFundingTime, mk.Time
	m.InsuranceFund, m.OpenInterest = p.item.Dec("insurance").String(), p.item.Int("openInterest")
	return m, nil
}

// PriceList is every open contract's prices and, from tickers (nil:
// none), their 24 h figures.
func (s *Service) PriceList(ctx context.Context, tickers Tickers) ([]MarketInfo, error) {
	var all map[string]marketdata.Ticker
	if tickers != nil {
		all = tickers.Tickers()
	}
	out := []MarketInfo{}
	for _, c := range s.o.Contracts.List() {
		if c.Closed {
			continue
		}
		m, err := s.marketInfo(ctx, c, all[MarketSymbol(c)])
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// DepthFunc answers a market symbol's book at step 0 (the market data's
// depth: [price, base coin size] best first).
type DepthFunc func(marketSymbol string, limit int) (bids, asks [][2]string, at int64, err error)

// Depth is a contract's book in contracts, best first, at most limit
// levels a side (1–200, default 50).
func (s *Service) Depth(symbol string, limit int, depth DepthFunc) (Depth, error) {
	c, err := s.Contract(symbol)
	if err != nil {
		return Depth{}, err
	}
	if limit <= 0 {
		limit = 50
	}
	bids, asks, at, err := depth(MarketSymbol(c), min(limit, 200))
	if err != nil {
		return Depth{}, err
	}
	out := Depth{Symbol: c.Symbol, Asks: [][2]string{}, Bids: [][2]string{}, Time: at}
	conv := func(rows [][2]string) ([][2]string, error) {
		out := make([][2]string, 0, len(rows))
		for _, r := range rows {
			size, err := decimal.NewFromString(r[1])
			if err != nil {
				return nil, err
			}
			out = append(out, [2]string{r[0], size.Div(c.ContractValue).Round(0).String()})
		}
		return out, nil
	}
	if out.Bids, err = conv(bids); err != nil {
		return Depth{}, err
	}
	if out.Asks, err = conv(asks); err != nil {
		return Depth{}, err
	}
	return out, nil
}

// ---- the caller's settings ----

func userConfigKey(uid string) store.Key { return store.Key{PK: pkUser + uid, SK: skUserConfig} }

// position reads the caller's position item of a contract on a side
// (nil: none).
func (s *Service) position(ctx context.Context, uid string, c contracts.Contract, side risk.PosSide) (store.Item, error) {
	it, err := s.o.Store.Get(ctx, store.Key{PK: pkPosition + uid, SK: positionSK(c.Symbol, side)})
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return it, err
}

// positions reads the caller's position items of a contract: one in
// one-way mode, up to three once hedge mode was used (flat ones kept).
func (s *Service) positions(ctx context.Context, uid string, c contracts.Contract) ([]store.Item, error) {
	items, err := s.queryAll(ctx, store.Query{PK: pkPosition + uid, SK: store.SKPrefixed(c.Symbol)})
	out := items[:0]
	for _, it := range items {
		if it.Str("symbol") == c.Symbol {
			out = append(out, it)
		}
	}
	return out, err
}

// parsePositionSide reads a positionSide field: empty or BOTH (one-way
// mode), LONG or SHORT (hedge mode).
func parsePositionSide(v string) (risk.PosSide, error) {
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "", PositionBoth:
		return risk.PosBoth, nil
	case PositionLong:
		return risk.PosLong, nil
	case PositionShort:
		return risk.PosShort, nil
	}
	return 0, apperr.New(apperr.CodeFuturesPositionSide)
}

// positionSideOf is an item's positionSide (BOTH when it has none).
func positionSideOf(it store.Item) string {
	if v := it.Str("positionSide"); v != "" {
		return v
	}
	return PositionBoth
}

// Opened says the user opened a futures account.
func (s *Service) Opened(ctx context.Context, uid string) (bool, error) {
	if _, ok := s.opened.Load(uid); ok {
		return true, nil
	}
	it, err := s.o.Store.Get(ctx, userConfigKey(uid))
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if it.Bool("opened") {
		s.opened.Store(uid, struct{}{})
	}
	return it.Bool("opened"), nil
}

// Open opens the user's futures account (the terms agreed); again is a no-op.
func (s *Service) Open(ctx context.Context, uid string) error {
	if uid == "" {
		return apperr.New(apperr.CodeNotSignedIn)
	}
	_, err := s.o.Store.Update(ctx, userConfigKey(uid), store.NewUpdate().Set("opened", true).SetIfMissing("openedAt", s.o.Now().UnixMilli()), nil)
	return err
}

// UserConfig is the caller's settings of a contract.
func (s *Service) UserConfig(ctx context.Context, uid, symbol string) (UserConfig, error) {
	c, err := s.Contract(symbol)
	if err != nil {
		return UserConfig{}, err
	}
	pos, err := s.positions(ctx, uid, c)
	if err != nil {
		return UserConfig{}, err
	}
	cfg, err := s.o.Store.Get(ctx, userConfigKey(uid))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return UserConfig{}, err
	}
	out := UserConfig{Symbol: c.Symbol, Leverage: min(int64(risk.DefaultLeverage), c.MaxLeverage()), MarginMode: MarginCross,
		PositionMode: PositionOneWay, MaxLeverage: c.MaxLeverage(), PageConfig: map[string]string{}}
	// Leverage and margin mode are the same on every side: the latest
	// item's; the highest leverage is the largest position's tier's.
	latest := int64(-1)
	dec := s.o.Decimals(c.Quote)
	g, gerr := c.Grid(dec)
	for _, it := range pos {
		if seq := it.Int("seq"); seq > latest {
			latest, out.Leverage, out.MarginMode = seq, it.Int("leverage"), MarginCross
			if it.Bool("isolated") {
				out.MarginMode = MarginIsolated
			}
		}
		if gerr == nil && it.Int("qty") != 0 {
			out.MaxLeverage = min(out.MaxLeverage, g.Tiers.MaxLeverage(it.Dec("cost").Shift(dec).IntPart()))
		}
	}
	if cfg != nil {
		if cfg.Int("positionMode") == PositionHedge {
			out.PositionMode = PositionHedge
		}
		out.OpenContract = cfg.Bool("opened")
		if raw := cfg.Str("page"); raw != "" {
			_ = json.Unmarshal([]byte(raw), &out.PageConfig)
		}
	}
	return out, nil
}

// MaxPageConfig bounds the page preferences a user keeps.
const MaxPageConfig = 32

// SavePageConfig merges page preferences (keys and values at most 64
// characters; an empty value removes the key).
func (s *Service) SavePageConfig(ctx context.Context, uid string, in map[string]string) error {
	cfg, err := s.o.Store.Get(ctx, userConfigKey(uid))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	cur := map[string]string{}
	if cfg != nil && cfg.Str("page") != "" {
		_ = json.Unmarshal([]byte(cfg.Str("page")), &cur)
	}
	for k, v := range in {
		if k == "" || len(k) > 64 || len(v) > 64 {
			return apperr.Param("pageConfig: keys and values of at most 64 characters")
		}
		if v == "" {
			delete(cur, k)
		} else {
			cur[k] = v
		}
	}
	if len(cur) > MaxPageConfig {
		return apperr.Param(fmt.Sprintf("pageConfig: at most %d keys", MaxPageConfig))
	}
	b, _ := json.Marshal(cur)
	_, err = s.o.Store.Update(ctx, userConfigKey(uid), store.NewUpdate().Set("page", string(b)), nil)
	return err
}

// submit applies a command and answers once the store shows it.
func (s *Service) submit(ctx context.Context, c engine.Command) (engine.Result, error) {
	res, err := s.o.Engine.SubmitProjected(ctx, c)
	if errors.Is(err, spot.ErrNotProjected) {
		s.o.Log.Warn().Err(err).Uint64("seq", res.Seq).Msg("futures: answered before the store shows the command")
		err = nil
	}
	if err != nil {
		return res, apperr.New(apperr.CodeFuturesBusy).WithCause(err)
	}
	return res, nil
}

// codeError is the error of an engine refusal.
func codeError(code engine.Code, c contracts.Contract, lev int64) error {
	switch code {
	case engine.OK, engine.Exists:
		return nil
	case engine.Insufficient:
		return apperr.New(apperr.CodeFuturesInsufficient)
	case engine.LeverageTooHigh:
		return apperr.New(apperr.CodeFuturesLeverage, strconv.FormatInt(lev, 10))
	case engine.PositionLimit:
		return apperr.New(apperr.CodeFuturesPositionLimit)
	case engine.ModeLocked:
		return apperr.New(apperr.CodeFuturesModeLocked, c.Symbol)
	case engine.WouldLiquidate:
		return apperr.New(apperr.CodeFuturesWouldLiquidate)
	case engine.NoPosition:
		return apperr.New(apperr.CodeFuturesNoPosition, c.Symbol)
	case engine.ReduceOnly:
		return apperr.New(apperr.CodeFuturesReduceOnly)
	case engine.UnknownPair:
		return apperr.New(apperr.CodeFuturesSymbol, c.Symbol)
	case engine.Conflict:
		return apperr.New(apperr.CodeFuturesClientOid)
	case engine.PositionSide:
		return apperr.New(apperr.CodeFuturesPositionSide)
	}
	return apperr.New(apperr.CodeFuturesBusy)
}

// SetLeverage sets the caller's leverage in a contract.
func (s *Service) SetLeverage(ctx context.Context, uid, symbol string, lev int64) (UserConfig, error) {
	c, err := s.Contract(symbol)
	if err != nil {
		return UserConfig{}, err
	}
	if lev < 1 || lev > c.MaxLeverage() {
		return UserConfig{}, apperr.New(apperr.CodeFuturesLeverage, strconv.FormatInt(c.MaxLeverage(), 10))
	}
	res, err := s.submit(ctx, engine.Command{Kind: engine.KindFutLeverage, User: engine.UserNumber(uid), UserID: uid, Amount: lev,
		Order: matching.Command{Symbol: BookSymbol(c)}})
	if err != nil {
		return UserConfig{}, err
	}
	if res.Code == engine.LeverageTooHigh {
		cfg, err := s.UserConfig(ctx, uid, symbol)
		if err != nil {
			return UserConfig{}, err
		}
		return UserConfig{}, apperr.New(apperr.CodeFuturesLeverage, strconv.FormatInt(cfg.MaxLeverage, 10))
	}
	if err := codeError(res.Code, c, c.MaxLeverage()); err != nil {
		return UserConfig{}, err
	}
	return s.UserConfig(ctx, uid, symbol)
}

// SetMarginMode sets the caller's margin mode in a contract (1 cross, 2 isolated).
func (s *Service) SetMarginMode(ctx context.Context, uid, symbol string, mode int) (UserConfig, error) {
	c, err := s.Contract(symbol)
	if err != nil {
		return UserConfig{}, err
	}
	if mode != MarginCross && mode != MarginIsolated {
		return UserConfig{}, apperr.New(apperr.CodeFuturesMarginMode)
	}
	amount := int64(0)
	if mode == MarginIsolated {
		amount = 1
	}
	res, err := s.submit(ctx, engine.Command{Kind: engine.KindFutMarginMode, User: engine.UserNumber(uid), UserID: uid, Amount: amount,
		Order: matching.Command{Symbol: BookSymbol(c)}})
	if err != nil {
		return UserConfig{}, err
	}
	if err := codeError(res.Code, c, c.MaxLeverage()); err != nil {
		return UserConfig{}, err
	}
	return s.UserConfig(ctx, uid, symbol)
}

// SetPositionMode sets the caller's position mode in every contract (1
// one-way, 2 hedge): only with no position, open order or trigger order.
// It answers the settings of symbol (the first contract when empty).
func (s *Service) SetPositionMode(ctx context.Context, uid, symbol string, mode int) (UserConfig, error) {
	if uid == "" {
		return UserConfig{}, apperr.New(apperr.CodeNotSignedIn)
	}
	if mode != PositionOneWay && mode != PositionHedge {
		return UserConfig{}, apperr.New(apperr.CodeFuturesPositionMode)
	}
	if strings.TrimSpace(symbol) == "" {
		if list := s.o.Contracts.List(); len(list) > 0 {
			symbol = list[0].Symbol
		}
	}
	c, err := s.Contract(symbol)
	if err != nil {
		return UserConfig{}, err
	}
	amount := int64(0)
	if mode == PositionHedge {
		amount = 1
	}
	res, err := s.submit(ctx, engine.Command{Kind: engine.KindPositionMode, User: engine.UserNumber(uid), UserID: uid, Amount: amount})
	if err != nil {
		return UserConfig{}, err
	}
	if res.Code == engine.ModeLocked {
		return UserConfig{}, apperr.New(apperr.CodeFuturesPositionModeLocked)
	}
	if err := codeError(res.Code, c, c.MaxLeverage()); err != nil {
		return UserConfig{}, err
	}
	return s.UserConfig(ctx, uid, c.Symbol)
}

// ChangeMargin adds margin to (add) or removes it from the caller's
// isolated position (on positionSide in hedge mode).
func (s *Service) ChangeMargin(ctx context.Context, uid, symbol, positionSide string, amount decimal.Decimal, add bool) (PositionView, error) {
	c, err := s.Contract(symbol)
	if err != nil {
		return PositionView{}, err
	}
	side, err := parsePositionSide(positionSide)
	if err != nil {
		return PositionView{}, err
	}
	dec := s.o.Decimals(c.Quote)
	places := min(dec, 8)
	if !amount.IsPositive() || decimalsOf(amount) > places || amount.Shift(dec).GreaterThan(decimal.New(1, 18)) {
		return PositionView{}, apperr.New(apperr.CodeFuturesAmount, strconv.Itoa(int(places)))
	}
	units := amount.Shift(dec).IntPart()
	if !add {
		units = -units
	}
	res, err := s.submit(ctx, engine.Command{Kind: engine.KindFutMargin, User: engine.UserNumber(uid), UserID: uid, Amount: units,
		Order: matching.Command{Symbol: BookSymbol(c)}, Spec: risk.OrderSpec{PosSide: side}})
	if err != nil {
		return PositionView{}, err
	}
	if err := codeError(res.Code, c, c.MaxLeverage()); err != nil {
		return PositionView{}, err
	}
	a, err := s.Assets(ctx, uid)
	if err != nil {
		return PositionView{}, err
	}
	for _, p := range a.Positions {
		if p.Symbol == c.Symbol && p.PositionSide == posSideName(side) {
			return p, nil
		}
	}
	return PositionView{}, apperr.New(apperr.CodeFuturesNoPosition, c.Symbol)
}

// ---- the account ----

// Assets is the caller's futures account per margin coin and open positions.
func (s *Service) Assets(ctx context.Context, uid string) (Assets, error) {
	out := Assets{Accounts: []AccountView{}, Positions: []PositionView{}}
	var ranks []adlRank
	items, err := s.queryAll(ctx, store.Query{PK: pkPosition + uid})
	if err != nil {
		return out, err
	}
	type acc struct {
		wallet, avail, held      int64
		posMargin, crossPnL, pnl int64
		crossMM, isoMargin       int64
		decimals                 int32
		crossIdx                 []int
	}
	accs := map[string]*acc{}
	coinsSeen := []string{}
	account := func(coin string) (*acc, error) {
		if a := accs[coin]; a != nil {
			return a, nil
		}
		b, err := s.led.Balance(ctx, ledger.UserAccount(uid, ledger.Futures), coin)
		if err != nil {
			return nil, err
		}
		dec := s.o.Decimals(coin)
		a := &acc{decimals: dec, avail: b.Available.Shift(dec).IntPart(), held: b.Frozen.Shift(dec).IntPart()}
		a.wallet = a.avail + a.held
		accs[coin] = a
		coinsSeen = append(coinsSeen, coin)
		return a, nil
	}
	for _, c := range s.o.Contracts.List() {
		if _, err := account(c.Quote); err != nil {
			return out, err
		}
	}
	for _, it := range items {
		qty := it.Int("qty")
		if qty == 0 {
			continue
		}
		c, ok := s.o.Contracts.Contract(it.Str("symbol"))
		if !ok {
			continue
		}
		a, err := account(c.Quote)
		if err != nil {
			return out, err
		}
		g, err := c.Grid(a.decimals)
		if err != nil {
			return out, err
		}
		pr, err := s.prices(ctx, c)
		if err != nil {
			return out, err
		}
		dec := a.decimals
		cost, margin := it.Dec("cost").Shift(dec).IntPart(), it.Dec("margin").Shift(dec).IntPart()
		side, q := perp.Long, qty
		if qty < 0 {
			side, q = perp.Short, -qty
		}
		pp := perp.Position{Side: side, Qty: q, Cost: cost}
		mark := pr.markTicks
		if mark <= 0 {
			mark = cost / max(q*g.TickValue, 1)
		}
		value, err := pp.Value(mark, g.TickValue)
		if err != nil {
			return out, err
		}
		pnl, _ := pp.PnL(mark, g.TickValue)
		mm, err := g.Tiers.Maintenance(value)
		if err != nil {
			return out, err
		}
		money := func(v int64) string { return decimal.New(v, -dec).StringFixed(min(dec, 8)) }
		pv := PositionView{Symbol: c.Symbol, ContractID: c.ID, Side: "LONG", PositionSide: positionSideOf(it), Volume: q,
			Size: c.ContractValue.Mul(decimal.NewFromInt(q)).String(), Margin: money(margin), Leverage: it.Int("leverage"),
			MarginMode: MarginCross, UnrealizedPnl: money(pnl), MaintenanceMargin: money(mm), Notional: money(value)}
		if side == perp.Short {
			pv.Side = "SHORT"
		}
		pprec := decimalsOf(c.PriceTick)
		pv.OpenPrice = decimal.New(cost, -dec).Div(c.ContractValue.Mul(decimal.NewFromInt(q))).Round(pprec).StringFixed(pprec)
		pv.MarkPrice = c.PriceTick.Mul(decimal.NewFromInt(mark)).StringFixed(pprec)
		if liq := it.Dec("liq"); liq.IsPositive() {
			pv.Liquidation = liq.StringFixed(pprec)
		}
		if im, err := perp.Initial(cost, max(pv.Leverage, 1)); err == nil && im > 0 {
			pv.ROE = decimal.NewFromInt(pnl).Mul(decimal.NewFromInt(100)).Div(decimal.NewFromInt(im)).StringFixed(2)
		}
		a.posMargin += margin
		a.pnl += pnl
		if it.Bool("isolated") {
			pv.MarginMode = MarginIsolated
			a.isoMargin += margin
			pv.MarginRatio = ratio(mm, margin+pnl)
		} else {
			a.crossPnL += pnl
			a.crossMM += mm
			a.crossIdx = append(a.crossIdx, len(out.Positions))
		}
		if bands, ok := adlBands(pr.item, side == perp.Long); ok {
			ranks = append(ranks, adlRank{pos: len(out.Positions), coin: c.Quote, cross: !it.Bool("isolated"), pnl: pnl, cost: cost,
				value: value, equity: margin + pnl, bands: bands})
		}
		out.Positions = append(out.Positions, pv)
	}
	for _, r := range ranks {
		equity := r.equity
		if r.cross { // the cross account's margin balance backs it
			a := accs[r.coin]
			equity = a.wallet - a.isoMargin + a.crossPnL
		}
		if score, err := perp.ADLScore(r.pnl, r.cost, r.value, equity); err == nil {
			out.Positions[r.pos].ADLLevel = r.bands.Level(score)
		}
	}
	for _, coin := range coinsSeen {
		a := accs[coin]
		dec := a.decimals
		money := func(v int64) string { return decimal.New(v, -dec).StringFixed(min(dec, 8)) }
		crossBalance := a.wallet - a.isoMargin + a.crossPnL
		r := ratio(a.crossMM, crossBalance)
		for _, i := range a.crossIdx {
			out.Positions[i].MarginRatio = r
		}
		out.Accounts = append(out.Accounts, AccountView{Coin: coin, WalletBalance: money(a.wallet), MarginBalance: money(a.wallet + a.pnl),
			Available: money(max(a.avail+min(a.crossPnL, 0), 0)), PositionMargin: money(a.posMargin),
			OrderMargin: money(max(a.held-a.posMargin, 0)), UnrealizedPnl: money(a.pnl), MaintenanceMargin: money(a.crossMM),
			MarginRatio: r})
	}
	sort.SliceStable(out.Positions, func(i, j int) bool {
		pi, pj := out.Positions[i], out.Positions[j]
		return pi.Symbol < pj.Symbol || pi.Symbol == pj.Symbol && pi.PositionSide < pj.PositionSide
	})
	return out, nil
}

// ratio is mm ÷ balance in percent (2 places); 0 without maintenance,
// 100 at or below a zero balance.
func ratio(mm, balance int64) string {
	if mm <= 0 {
		return "0.00"
	}
	if balance <= 0 {
		return "100.00"
	}
	return decimal.NewFromInt(mm).Mul(decimal.NewFromInt(100)).Div(decimal.NewFromInt(balance)).StringFixed(2)
}

// adlRank is what a position's place in its auto-deleveraging queue is
// computed from once its account's margin balance is known.
type adlRank struct {
	pos                      int
	coin                     string
	cross                    bool
	pnl, cost, value, equity int64
	bands                    perp.ADLBands
}

// adlBands reads a side's auto-deleveraging bands from a contract's price
// item (the price loop ranks the positions every ADLEvery).
func adlBands(price store.Item, long bool) (perp.ADLBands, bool) {
	attr := "adlShort"
	if long {
		attr = "adlLong"
	}
	var b perp.ADLBands
	parts := strings.Split(price.Str(attr), ",")
	if price == nil || len(parts) != len(b) {
		return b, false
	}
	for i, p := range parts {
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return b, false
		}
		b[i] = v
	}
	return b, true
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
