package spot

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/engine"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/store"
)

// FeeCoinSwitch reads the user's fee-coin switch (wallet.Service has it).
type FeeCoinSwitch interface {
	FeeCoinOpen(ctx context.Context, uid string) (bool, error)
}

// Options build a Service.
type Options struct {
	Store   store.Store
	Markets *markets.Catalogue
	// Engine is the engine that owns the balances (required): order entry
	// sends it commands and answers from it (entry.go).
	Engine EngineClient
	// FeeCoin is optional; without it the switch counts as off.
	FeeCoin FeeCoinSwitch
	// FeeTiers defaults to DefaultFeeTiers.
	FeeTiers []FeeTier
	// Prices are the reference prices (refprice.Reader): the band of a
	// market buy by quantity is taken from them. Nil: the pair's last
	// trade price (tests of order entry alone).
	Prices RefPrices
	Now    func() time.Time
	Log    zerolog.Logger
}

// RefPrices values coins at the exchange's reference prices, which one
// small trade at a price of the traders' choosing cannot move (package
// refprice); ok is false when a coin has none.
type RefPrices interface {
	PairPrice(ctx context.Context, base, quote string) (decimal.Decimal, bool, error)
	USDTPrice(ctx context.Context, coin string) (decimal.Decimal, bool, error)
}

// Service is the trading API: order entry, cancellation and queries.
type Service struct {
	st     store.Store
	cat    *markets.Catalogue
	eng    EngineClient
	fc     FeeCoinSwitch
	tiers  []FeeTier
	prices RefPrices
	now    func() time.Time
	log    zerolog.Logger
	ctr    atomic.Uint64
	rates  sync.Map // uid → cachedRates
}

// cachedRates are a user's tier rates and 30-day volume, reused for
// rateTTL: the volume moves slowly, and summing its daily items on every
// order would double the store reads of order entry. The fee-coin switch is
// read on every call, so a change applies to the user's next order and
// fee-rate answer.
type cachedRates struct {
	FeeRates
	until time.Time
}

const rateTTL = time.Minute

var _ marketdata.OrderPlacer = (*Service)(nil)

// New returns the trading service. It panics without Options.Engine.
func New(o Options) *Service {
	if o.Engine == nil {
		panic("spot: New without Options.Engine: order entry goes to the engine that owns the balances")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if len(o.FeeTiers) == 0 {
		o.FeeTiers = DefaultFeeTiers
	}
	s := &Service{st: o.Store, cat: o.Markets, eng: o.Engine, fc: o.FeeCoin, tiers: o.FeeTiers,
		prices: o.Prices, now: o.Now, log: o.Log}
	var b [8]byte
	_, _ = rand.Read(b[:])
	s.ctr.Store(binary.LittleEndian.Uint64(b[:]))
	return s
}

// newOrderID is the creation time in ms followed by 16 bits of a counter
// seeded at random: ids sort roughly by time, and two API processes almost
// never pick the same one (the book refuses an id a live order has, and
// PlaceOrder then retries with another).
func (s *Service) newOrderID() uint64 {
	return uint64(s.now().UnixMilli())<<16 | (s.ctr.Add(1) & 0xffff)
}

// historySK is an order's sort key in the user's history index: the
// creation time in ms, 13 digits, then the id.
func historySK(ms int64, id string) string {
	var b [13]byte
	n := strconv.AppendInt(b[:0], ms, 10)
	out := make([]byte, 0, 14+len(id))
	for i := len(n); i < 13; i++ {
		out = append(out, '0')
	}
	out = append(append(append(out, n...), '#'), id...)
	return string(out)
}

// FeeRates are a user's spot fee rates (fractions of the amount received).
type FeeRates struct {
	Maker, Taker decimal.Decimal
	// Volume30d is the user's spot volume of the last 30 days in USDT
	// (tradeVolume), which picks the tier.
	Volume30d decimal.Decimal
	// FeeCoin is set while the fee-coin switch lowers both rates.
	FeeCoin bool
}

// FeeRates returns the rates the user's next order gets (they are fixed on
// the order when it is placed).
func (s *Service) FeeRates(ctx context.Context, uid string) (FeeRates, error) {
	now := s.now()
	var r FeeRates
	if v, ok := s.rates.Load(uid); ok && now.Before(v.(cachedRates).until) {
		r = v.(cachedRates).FeeRates
	} else {
		vol, err := thirtyDayVolume(ctx, s.st, uid, now)
		if err != nil {
			return FeeRates{}, err
		}
		t := tierFor(s.tiers, vol)
		r = FeeRates{Maker: t.Maker, Taker: t.Taker, Volume30d: vol}
		s.rates.Store(uid, cachedRates{FeeRates: r, until: now.Add(rateTTL)})
	}
	if s.fc != nil {
		var err error
		if r.FeeCoin, err = s.fc.FeeCoinOpen(ctx, uid); err != nil {
			return FeeRates{}, err
		}
		if r.FeeCoin {
			off := decimal.NewFromInt(1).Sub(FeeCoinDiscount)
			r.Maker, r.Taker = r.Maker.Mul(off), r.Taker.Mul(off)
		}
	}
	return r, nil
}

// PlaceOrder validates an order and places it in the engine, which holds
// the funds it can spend (entry.go). It returns the order id. With a
// clientOrderId, a retry returns the first order's id.
func (s *Service) PlaceOrder(ctx context.Context, uid string, req PlaceRequest) (string, error) {
	req.ClientOrderID = strings.TrimSpace(req.ClientOrderID)
	if req.ClientOrderID != "" && !ValidClientOrderID(req.ClientOrderID) {
		return "", apperr.Param("clientOrderId: 1 to 64 letters, digits and -_.:/")
	}
	if req.ClientOrderID != "" && !req.NewClientOrderID {
		if id, err := s.existingClientOrder(ctx, uid, req); id != "" || err != nil {
			return id, err
		}
	}
	rates, err := s.FeeRates(ctx, uid)
	if err != nil {
		return "", err
	}
	return s.placeOnEngine(ctx, uid, req, rates.Maker, rates.Taker)
}

// check validates an order (checkOrder) and refuses a stop its pair's last
// price has already reached (checkStop).
func (s *Service) check(ctx context.Context, uid string, req PlaceRequest, id uint64) (checked, error) {
	c, err := checkOrder(s.cat, req, userNum(uid), id)
	if err != nil {
		return c, err
	}
	if c.cmd.StopPrice > 0 {
		if err := s.checkStop(ctx, c); err != nil {
			return c, err
		}
	}
	return c, nil
}

// checkStop refuses a STOP_LIMIT whose stop the pair's last stored trade price
// has already reached (matching.StopReached), as the engine would at once
// (ReasonStopWouldTrigger); the
// caller hears why now rather than finding the order rejected. The engine
// still decides against its own last price.
func (s *Service) checkStop(ctx context.Context, c checked) error {
	last, err := s.lastPrice(ctx, c.pair.Symbol)
	if err != nil || !last.IsPositive() {
		return err
	}
	lastTicks, err := c.cfg.ToTicks(last)
	if err != nil {
		return nil // a last price off the grid (the tick changed): the engine decides
	}
	if matching.StopReached(c.cmd.Side, c.cmd.StopPrice, lastTicks) {
		return apperr.New(apperr.CodeTradeStopReached, last.StringFixed(c.pair.PricePrecision))
	}
	return nil
}

// bandPrice is the price a market buy by quantity is banded around: the
// pair's reference price, which a trade far from the market cannot move
// (the last trade price could be pushed up by a self-trade to lift the
// band off buyers' orders, letting them sweep asks placed far above the
// market); the last trade price only when there is no reference.
func (s *Service) bandPrice(ctx context.Context, p markets.Pair) (decimal.Decimal, error) {
	if s.prices != nil {
		ref, ok, err := s.prices.PairPrice(ctx, p.Base, p.Quote)
		if err != nil {
			return decimal.Zero, err
		}
		if ok && ref.IsPositive() {
			return ref, nil
		}
	}
	return s.lastPrice(ctx, p.Symbol)
}

// lastPrice is the pair's last trade price as the store shows it (the marks item), zero
// before its first trade.
func (s *Service) lastPrice(ctx context.Context, symbol string) (decimal.Decimal, error) {
	it, err := s.st.Get(ctx, marksKey(symbol))
	if errors.Is(err, store.ErrNotFound) {
		return decimal.Zero, nil
	}
	if err != nil {
		return decimal.Zero, err
	}
	return it.Dec("price"), nil
}

// existingClientOrder returns the id of the user's order with this
// clientOrderId when its parameters match, CodeTradeClientOrderReused when
// they do not, and "" when there is none.
func (s *Service) existingClientOrder(ctx context.Context, uid string, req PlaceRequest) (string, error) {
	it, err := s.st.Get(ctx, store.Key{PK: pkClientID + uid, SK: req.ClientOrderID})
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if fp := it.Str("fp"); fp != fingerprint(req) && fp != rawFingerprint(req) {
		return "", apperr.New(apperr.CodeTradeClientOrderReused)
	}
	return it.Str("orderId"), nil
}

// fingerprint identifies an order's parameters for clientOrderId retries
// as the order reads them: the pair however it is written ("BTC/USDT" is
// btcusdt) and numbers by value ("0.050" is 0.05), so a retry that writes
// the same order differently finds it.
func fingerprint(r PlaceRequest) string {
	canon := r
	if sy, ok := sym(strings.TrimSpace(r.Symbol)); ok {
		canon.Symbol = sy
	}
	for _, n := range []*string{&canon.Price, &canon.Volume, &canon.QuoteVolume, &canon.StopPrice} {
		if v := strings.TrimSpace(*n); v != "" && plainNumber(v) {
			if d, err := decimal.NewFromString(v); err == nil {
				*n = d.String()
			}
		}
	}
	canon.Side, canon.Type, canon.STP = strings.TrimSpace(r.Side), strings.TrimSpace(r.Type), strings.TrimSpace(r.STP)
	return rawFingerprint(canon)
}

// rawFingerprint is the parameters as written, the form mappings stored
// before fingerprint were keyed by.
func rawFingerprint(r PlaceRequest) string {
	parts := []string{r.Symbol, r.Side, r.Type, r.Price, r.Volume, r.QuoteVolume, r.StopPrice}
	if r.STP != "" { // appended only when given: mappings stored before the field keep their fingerprint
		parts = append(parts, r.STP)
	}
	return strings.ToLower(strings.Join(parts, "|"))
}

// GetOrder reads one order of the user.
func (s *Service) GetOrder(ctx context.Context, uid, orderID string) (Order, error) {
	return Reader{Store: s.st}.GetOrder(ctx, uid, orderID)
}

// Reader reads orders and their fills straight from the store, without
// the engine: for readers of the change feed (the stream function's
// Binance-compatible user data events) that place nothing. The Service
// reads through it.
type Reader struct{ Store store.Store }

// GetOrder reads one order of the user.
func (r Reader) GetOrder(ctx context.Context, uid, orderID string) (Order, error) {
	id, err := parseOrderID(orderID)
	if err != nil {
		return Order{}, err
	}
	it, err := r.Store.Get(ctx, orderKey(id))
	if errors.Is(err, store.ErrNotFound) || (err == nil && it.Str("uid") != uid) {
		return Order{}, apperr.New(apperr.CodeTradeOrderNotFound)
	}
	if err != nil {
		return Order{}, err
	}
	return orderFromItem(it), nil
}

// OrderByClientID reads the user's order placed with a clientOrderId
// (CodeTradeOrderNotFound when there is none).
func (s *Service) OrderByClientID(ctx context.Context, uid, clientOrderID string) (Order, error) {
	cid := strings.TrimSpace(clientOrderID)
	if !ValidClientOrderID(cid) {
		return Order{}, apperr.New(apperr.CodeTradeOrderNotFound)
	}
	it, err := s.st.Get(ctx, store.Key{PK: pkClientID + uid, SK: cid})
	if errors.Is(err, store.ErrNotFound) {
		return Order{}, apperr.New(apperr.CodeTradeOrderNotFound)
	}
	if err != nil {
		return Order{}, err
	}
	return s.GetOrder(ctx, uid, it.Str("orderId"))
}

func parseOrderID(s string) (uint64, error) {
	// Decimal digits only: no sign, base prefix or trailing text.
	id, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil || id == 0 || len(s) > 24 {
		return 0, apperr.New(apperr.CodeTradeOrderNotFound)
	}
	return id, nil
}

// openOrder returns one of the user's orders that a cancel or an amend may
// act on: it exists, belongs to the user, is of symbol (when given) and is
// still open.
func (s *Service) openOrder(ctx context.Context, uid, symbol, orderID string) (Order, error) {
	o, err := s.GetOrder(ctx, uid, orderID)
	if err != nil {
		return Order{}, err
	}
	if symbol != "" {
		if p, ok := s.cat.Pair(symbol); !ok || p.Symbol != o.Symbol {
			return Order{}, apperr.New(apperr.CodeTradeOrderNotFound)
		}
	}
	if !o.Status.Open() {
		return Order{}, apperr.New(apperr.CodeTradeOrderFinished)
	}
	return o, nil
}

// CancelOrder has the engine cancel one of the user's open orders; the
// engine refusing it means the order ended meanwhile.
func (s *Service) CancelOrder(ctx context.Context, uid, symbol, orderID string) error {
	o, err := s.openOrder(ctx, uid, symbol, orderID)
	if err != nil {
		return err
	}
	id, _ := parseOrderID(o.ID)
	cmd := matching.Command{Kind: matching.CmdCancel, OrderID: id, UserID: userNum(uid), Symbol: symbolNum(o.Symbol)}
	return s.orderOnEngine(ctx, uid, engine.KindCancel, cmd, nil)
}

// CancelAll asks the engine to cancel all the user's open orders of a
// symbol, or of every symbol where the user has one when symbol is "".
func (s *Service) CancelAll(ctx context.Context, uid, symbol string) error {
	var symbols []string
	if symbol != "" {
		p, ok := s.cat.Pair(symbol)
		if !ok {
			return apperr.New(apperr.CodeTradeSymbolUnknown, clip(symbol, 40))
		}
		symbols = []string{p.Symbol}
	} else {
		open, err := s.ListOpenOrders(ctx, uid, "")
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, o := range open {
			if !seen[o.Symbol] {
				seen[o.Symbol] = true
				symbols = append(symbols, o.Symbol)
			}
		}
	}
	before := s.newOrderID()
	for _, sym := range symbols {
		// OrderID bounds the cancel-all to orders placed before this
		// request: it never cancels an order placed after it was asked.
		cmd := matching.Command{Kind: matching.CmdCancelAll, OrderID: before, UserID: userNum(uid), Symbol: symbolNum(sym)}
		if err := s.orderOnEngine(ctx, uid, engine.KindCancelAll, cmd, nil); err != nil && !errors.Is(err, apperr.New(apperr.CodeTradeOrderFinished)) {
			return err
		}
	}
	return nil
}

// ListOpenOrders lists the user's open orders (of one symbol, or all), newest first.
func (s *Service) ListOpenOrders(ctx context.Context, uid, symbol string) ([]Order, error) {
	q := store.Query{Index: store.IndexGSI2, PK: pkOpen + uid, Limit: 500}
	if symbol != "" {
		p, ok := s.cat.Pair(symbol)
		if !ok {
			return nil, apperr.New(apperr.CodeTradeSymbolUnknown, clip(symbol, 40))
		}
		q.SK = store.SKPrefixed(p.Symbol + "#")
	}
	var out []Order
	for {
		page, err := s.st.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			if o := orderFromItem(it); o.Status.Open() { // not a filled one stored before its end (orderFromItem)
				out = append(out, o)
			}
		}
		if page.Cursor == "" {
			break
		}
		q.Cursor = page.Cursor
	}
	sortNewestFirst(out)
	return out, nil
}

func sortNewestFirst(os []Order) {
	for i := 1; i < len(os); i++ {
		for j := i; j > 0 && (os[j].CreatedAt.After(os[j-1].CreatedAt) ||
			os[j].CreatedAt.Equal(os[j-1].CreatedAt) && os[j].ID > os[j-1].ID); j-- {
			os[j], os[j-1] = os[j-1], os[j]
		}
	}
}

// symbolSeparators strips the separators of "BTC/USDT" and "BTC_USDT",
// built once (a Replacer builds its table on first use).
var symbolSeparators = strings.NewReplacer("/", "", "_", "", "-", "")

// HistoryWindow is how far back order and trade searches reach.
const HistoryWindow = 180 * 24 * time.Hour

// OrderFilter narrows an order or trade search. Zero values match all.
type OrderFilter struct {
	Symbol   string
	Side     string
	Status   []Status
	Type     string
	From, To time.Time
	Page     int // 1-based
	PageSize int // default 20, at most MaxPageSize
}

// MaxPageSize is the largest page of order and trade searches.
const MaxPageSize = 100

// norm applies the defaults and the 180-day window at now; it reports
// false when the range holds nothing (it ends before it starts, or before
// the window).
func (f *OrderFilter) norm(now time.Time) bool {
	if f.Page < 1 {
		f.Page = 1
	}
	if f.PageSize < 1 {
		f.PageSize = 20
	}
	if f.PageSize > MaxPageSize {
		f.PageSize = MaxPageSize
	}
	if earliest := now.Add(-HistoryWindow); f.From.Before(earliest) {
		f.From = earliest
	}
	if f.To.IsZero() || f.To.After(now) {
		f.To = now
	}
	if p, ok := sym(f.Symbol); ok {
		f.Symbol = p
	}
	f.Side = strings.ToUpper(f.Side)
	f.Type = strings.ToUpper(f.Type)
	return !f.From.After(f.To)
}

func sym(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	return strings.ToLower(symbolSeparators.Replace(s)), true
}

// SearchOrders pages through the user's orders of the last 180 days,
// newest first, and returns the page and the total number of matches.
func (s *Service) SearchOrders(ctx context.Context, uid string, f OrderFilter) ([]Order, int, error) {
	if !f.norm(s.now()) {
		return nil, 0, nil
	}
	q := store.Query{Index: store.IndexGSI1, PK: pkUserOrds + uid, Desc: true, Limit: 500,
		SK: store.SKRange(fmt.Sprintf("%013d", f.From.UnixMilli()), fmt.Sprintf("%013d~", f.To.UnixMilli()))}
	var out []Order
	total := 0
	skip := (f.Page - 1) * f.PageSize
	for {
		page, err := s.st.Query(ctx, q)
		if err != nil {
			return nil, 0, err
		}
		for _, it := range page.Items {
			o := orderFromItem(it)
			if (f.Symbol != "" && o.Symbol != f.Symbol) || (f.Side != "" && o.Side != f.Side) ||
				(f.Type != "" && o.Type != f.Type) || (len(f.Status) > 0 && !hasStatus(f.Status, o.Status)) {
				continue
			}
			total++
			if total > skip && len(out) < f.PageSize {
				out = append(out, o)
			}
		}
		if page.Cursor == "" {
			return out, total, nil
		}
		q.Cursor = page.Cursor
	}
}

func hasStatus(list []Status, s Status) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SearchTrades pages through the user's trades of the last 180 days, newest first.
func (s *Service) SearchTrades(ctx context.Context, uid string, f OrderFilter) ([]Trade, int, error) {
	if !f.norm(s.now()) {
		return nil, 0, nil
	}
	q := store.Query{Index: store.IndexGSI1, PK: pkUserTrds + uid, Desc: true, Limit: 500,
		SK: store.SKRange(fmt.Sprintf("%013d", f.From.UnixMilli()), fmt.Sprintf("%013d~", f.To.UnixMilli()))}
	var out []Trade
	total := 0
	skip := (f.Page - 1) * f.PageSize
	for {
		page, err := s.st.Query(ctx, q)
		if err != nil {
			return nil, 0, err
		}
		for _, it := range page.Items {
			t := tradeFromItem(it)
			if (f.Symbol != "" && t.Symbol != f.Symbol) || (f.Side != "" && t.Side != f.Side) {
				continue
			}
			total++
			if total > skip && len(out) < f.PageSize {
				out = append(out, t)
			}
		}
		if page.Cursor == "" {
			return out, total, nil
		}
		q.Cursor = page.Cursor
	}
}

// OrderTrades lists the fills of one of the user's orders, oldest first.
func (s *Service) OrderTrades(ctx context.Context, uid, orderID string) ([]Trade, error) {
	return Reader{Store: s.st}.OrderTrades(ctx, uid, orderID)
}

// OrderTrades lists the fills of one of the user's orders, oldest first.
func (r Reader) OrderTrades(ctx context.Context, uid, orderID string) ([]Trade, error) {
	o, err := r.GetOrder(ctx, uid, orderID)
	if err != nil {
		return nil, err
	}
	q := store.Query{PK: pkTrades + o.ID, Limit: 500}
	var out []Trade
	for {
		page, err := r.Store.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			out = append(out, tradeFromItem(it))
		}
		if page.Cursor == "" {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

// Pair returns the catalogue pair of a symbol.
func (s *Service) Pair(symbol string) (markets.Pair, bool) { return s.cat.Pair(symbol) }

// PlaceLimit implements marketdata.OrderPlacer (the market maker's GTC orders).
func (s *Service) PlaceLimit(ctx context.Context, uid, symbol, side string, price, qty decimal.Decimal) (string, error) {
	return s.PlaceOrder(ctx, uid, PlaceRequest{Symbol: symbol, Side: side, Type: TypeLimit, Price: price.String(), Volume: qty.String()})
}

// Cancel implements marketdata.OrderPlacer.
func (s *Service) Cancel(ctx context.Context, uid, symbol, orderID string) error {
	return s.CancelOrder(ctx, uid, symbol, orderID)
}

// OpenOrders implements marketdata.OrderPlacer: ids of the user's open orders of a symbol.
func (s *Service) OpenOrders(ctx context.Context, uid, symbol string) ([]string, error) {
	os, err := s.ListOpenOrders(ctx, uid, symbol)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(os))
	for i, o := range os {
		ids[i] = o.ID
	}
	return ids, nil
}
