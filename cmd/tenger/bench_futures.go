package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// `tenger bench --product futures`: the same traders, load loop and
// measurement as a spot run (runMeasured), with crossing limit orders of a
// perpetual contract (/fe-co-api/order/order_create, over the http
// transport) from the traders' futures accounts.
//
// Set-up: the contract's index is set to --price with /dev/index (the
// simulator's, so the mark is defined and at the bench's price: orders
// are refused without a mark, and a limit order may not cross more than
// 10 % from it); each trader opens its futures account
// (/fe-co-api/user/open_contract), has orders a failed run left open
// cancelled, and is topped up in spot (a chain deposit, as a spot run's)
// and moves the margin coin to futures (/fe-ex-api/wallet/
// futures_to_contract) until its futures account has the notional of all
// its orders of the run available (leverage 1's margin: the default
// leverage needs a twentieth of it), plus 1 % for fees.
//
// Orders: --qty whole contracts each (default 1); buys bid futuresSpread
// above --price and sells ask as much below, so every buy crosses every
// sell and whichever rests sets the price of its trades: trades land at
// the two prices, and a position that closes realizes a profit or a loss,
// and fees, besides. As in a spot run, one half of the traders buys and
// the other sells (a trader never has orders of both sides open: the
// book's self-trade prevention would cancel the one that meets its own);
// which half buys follows their positions: a half that is long sells, so
// consecutive runs open the positions and close them again (the first
// half buys when flat). Settled is read as in a spot run: no trader has a
// futures order open (/fe-co-api/order/current_order_list) and the
// sampled orders, the last one acknowledged among them, read FILLED with
// /fe-co-api/order/get_trade_info (futuresLagRead).

// defaultFuturesSymbol is --symbol's default with --product futures.
const defaultFuturesSymbol = "BTCUSDT"

// futuresOrderIDKey is the order id in a futures order's answer.
var futuresOrderIDKey = []byte(`"orderId":"`)

// futuresSpread is how far above --price buys bid and below it sells ask.
var futuresSpread = decimal.RequireFromString("0.0005")

// futuresRun is what a futures run traded, for its report.
type futuresRun struct {
	Symbol     string
	Contracts  int64  // per order
	Buy, Sell  string // the orders' prices
	Buyers     string // the traders who bought: "0-3"
	Sellers    string
	MarginCoin string
	Available  string // what each trader had available at least
}

func (r *futuresRun) print(w io.Writer) {
	fmt.Fprintf(w, "product futures: %s, orders of %s; traders %s bought at %s, %s sold at %s (each with at least %s %s available)\n",
		r.Symbol, contractsText(r.Contracts), r.Buyers, r.Buy, r.Sellers, r.Sell, r.Available, r.MarginCoin)
}

// benchContract is a contract of /fe-co-api/common/public_info.
type benchContract struct {
	Symbol        string `json:"symbol"`
	MarginCoin    string `json:"marginCoin"`
	ContractValue string `json:"contractValue"`
	PriceTick     string `json:"priceTick"`
	MinQty        int64  `json:"minQty"`
	MaxOrderQty   int64  `json:"maxOrderQty"`
	Status        string `json:"status"`
}

func benchContractOf(ctx context.Context, c *benchClient, symbol string) (benchContract, error) {
	var info struct {
		Contracts []benchContract `json:"contractList"`
	}
	if err := c.ok(ctx, "/fe-co-api/common/public_info", "", map[string]any{}, &info); err != nil {
		return benchContract{}, err
	}
	for _, k := range info.Contracts {
		if strings.EqualFold(k.Symbol, symbol) {
			return k, nil
		}
	}
	return benchContract{}, fmt.Errorf("contract %q is not in /fe-co-api/common/public_info", symbol)
}

// futuresPrices are the buys' and the sells' prices: futuresSpread above
// and below price, on the tick (at least a tick apart from it).
func futuresPrices(price, tick decimal.Decimal) (buy, sell decimal.Decimal) {
	d := price.Mul(futuresSpread).Div(tick).Round(0)
	if d.LessThan(decimal.NewFromInt(1)) {
		d = decimal.NewFromInt(1)
	}
	at := price.Div(tick).Round(0)
	buy, sell = at.Add(d).Mul(tick), at.Sub(d).Mul(tick)
	if !sell.IsPositive() {
		sell = tick
	}
	return buy, sell
}

// futuresLagRead reads a sampled futures order back.
var futuresLagRead = lagRead{
	path: "/fe-co-api/order/get_trade_info",
	body: func(id string) any { return map[string]any{"orderId": id} },
	status: func(data json.RawMessage) (bool, bool, error) {
		var d struct {
			Order struct {
				Status string `json:"status"`
			} `json:"order"`
		}
		err := json.Unmarshal(data, &d)
		s := d.Order.Status
		return s == "FILLED", s == "CANCELED" || s == "REJECTED", err
	},
}

// futuresAssets is /fe-co-api/position/get_assets_list as the bench reads it.
type futuresAssets struct {
	Accounts []struct {
		Coin      string `json:"coin"`
		Available string `json:"availableBalance"`
	} `json:"accountList"`
	Positions []struct {
		Symbol string `json:"symbol"`
		Side   string `json:"side"`
		Volume int64  `json:"volume"`
	} `json:"positionList"`
}

// available is the account's available balance in coin (0 when none).
func (a futuresAssets) available(coin string) decimal.Decimal {
	for _, acc := range a.Accounts {
		if acc.Coin == coin {
			d, _ := decimal.NewFromString(acc.Available)
			return d
		}
	}
	return decimal.Zero
}

// position is the signed position in symbol (long positive), in contracts.
func (a futuresAssets) position(symbol string) int64 {
	n := int64(0)
	for _, p := range a.Positions {
		if p.Symbol != symbol {
			continue
		}
		if p.Side == "SHORT" {
			n -= p.Volume
		} else {
			n += p.Volume
		}
	}
	return n
}

// benchFuturesOpen is how many futures orders of symbol a trader has open.
func benchFuturesOpen(ctx context.Context, c *benchClient, token, symbol string) (int, error) {
	var list struct {
		Count int `json:"count"`
	}
	err := c.ok(ctx, "/fe-co-api/order/current_order_list", token, map[string]any{"symbol": symbol, "pageSize": 1}, &list)
	return list.Count, err
}

// benchFuturesCancel cancels a trader's open futures orders of symbol (a
// failed run's).
func benchFuturesCancel(ctx context.Context, c *benchClient, token, symbol string) error {
	for range 100 {
		var list struct {
			Count int `json:"count"`
			List  []struct {
				OrderID string `json:"orderId"`
			} `json:"orderList"`
		}
		if err := c.ok(ctx, "/fe-co-api/order/current_order_list", token, map[string]any{"symbol": symbol, "pageSize": 100}, &list); err != nil {
			return err
		}
		if list.Count == 0 {
			return nil
		}
		for _, o := range list.List {
			// An order that filled or ended meanwhile is refused: not an error.
			if _, err := c.call(ctx, "/fe-co-api/order/order_cancel", token, map[string]any{"symbol": symbol, "orderId": o.OrderID}); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("open futures orders of %s not cancelled", symbol)
}

// contractsText is "1 contract", "5 contracts".
func contractsText(n int64) string {
	if n == 1 {
		return "1 contract"
	}
	return strconv.FormatInt(n, 10) + " contracts"
}

// halfName names trader indexes from..to.
func halfName(from, to int) string {
	if from == to {
		return strconv.Itoa(from)
	}
	return fmt.Sprintf("%d-%d", from, to)
}

func benchFutures(ctx context.Context, c *benchClient, f benchFlags, progress io.Writer) (benchReport, error) {
	k, err := benchContractOf(ctx, c, f.symbol)
	if err != nil {
		return benchReport{}, fmt.Errorf("bench: %w", err)
	}
	price, err := decimal.NewFromString(f.price)
	if err != nil || !price.IsPositive() {
		return benchReport{}, fmt.Errorf("bench: bad --price %q", f.price)
	}
	qty, err := strconv.ParseInt(f.qty, 10, 64)
	if err != nil || qty < max(k.MinQty, 1) || (k.MaxOrderQty > 0 && qty > k.MaxOrderQty) {
		return benchReport{}, fmt.Errorf("bench: --qty is whole contracts with --product futures (%d to %d), not %q", max(k.MinQty, 1), k.MaxOrderQty, f.qty)
	}
	tick, err1 := decimal.NewFromString(k.PriceTick)
	value, err2 := decimal.NewFromString(k.ContractValue)
	if err1 != nil || err2 != nil || !tick.IsPositive() || !value.IsPositive() {
		return benchReport{}, fmt.Errorf("bench: contract %s: tick %q, contract value %q", k.Symbol, k.PriceTick, k.ContractValue)
	}
	buyPrice, sellPrice := futuresPrices(price, tick)
	places := max(0, -tick.Exponent())
	// A trader sends orders/users orders of a side (rounded up); its futures
	// account holds their whole notional at the buys' price, and 1 % more.
	perTrader := int64((f.orders + f.users - 1) / f.users)
	need := buyPrice.Mul(value).Mul(decimal.NewFromInt(perTrader * qty)).Mul(decimal.RequireFromString("1.01")).Ceil()

	// The mark at the bench's price: the simulator's index, the price loop
	// run at once.
	if err := c.ok(ctx, "/dev/index", "", map[string]any{"symbol": k.Symbol, "price": price.String()}, nil); err != nil {
		return benchReport{}, fmt.Errorf("bench: setting the index of %s (is the server running with --dev?): %w", k.Symbol, err)
	}
	fmt.Fprintf(progress, "signing in %d traders (%s to %s, created when missing), each with at least %s %s available in its futures account...\n",
		f.users, benchTraderEmail(0), benchTraderEmail(f.users-1), need, k.MarginCoin)
	run := time.Now().UnixNano()
	tokens, created, err := benchTraders(ctx, c, f.users, "", map[string]decimal.Decimal{k.MarginCoin: need}, strconv.FormatInt(run, 10))
	if err != nil {
		return benchReport{}, fmt.Errorf("bench: set-up: %w", err)
	}
	if created > 0 {
		fmt.Fprintf(progress, "created %d traders\n", created)
	}
	positions := make([]int64, f.users)
	for i, t := range tokens {
		if err := c.ok(ctx, "/fe-co-api/user/open_contract", t, map[string]any{"symbol": k.Symbol}, nil); err != nil {
			return benchReport{}, fmt.Errorf("bench: set-up: %w", err)
		}
		if err := benchFuturesCancel(ctx, c, t, k.Symbol); err != nil {
			return benchReport{}, fmt.Errorf("bench: set-up: %w", err)
		}
		var a futuresAssets
		if err := c.ok(ctx, "/fe-co-api/position/get_assets_list", t, map[string]any{}, &a); err != nil {
			return benchReport{}, fmt.Errorf("bench: set-up: %w", err)
		}
		if avail := a.available(k.MarginCoin); avail.LessThan(need) {
			amount := need.Sub(avail).Ceil()
			if err := c.ok(ctx, "/fe-ex-api/wallet/futures_to_contract", t, map[string]any{"coinSymbol": k.MarginCoin, "amount": amount.String(),
				"requestId": fmt.Sprintf("bench-%d-%d", run, i)}, nil); err != nil {
				return benchReport{}, fmt.Errorf("bench: set-up: moving %s %s to futures: %w", amount, k.MarginCoin, err)
			}
		}
		positions[i] = a.position(k.Symbol)
	}
	// The half that is long sells this run (the first half buys when flat).
	half := f.users / 2
	held := int64(0)
	for _, p := range positions[:half] {
		held += p
	}
	buyers, sellers := 0, half
	if held > 0 {
		buyers, sellers = half, 0
	}
	fr := &futuresRun{Symbol: k.Symbol, Contracts: qty, Buy: buyPrice.StringFixed(places), Sell: sellPrice.StringFixed(places),
		Buyers: halfName(buyers, buyers+half-1), Sellers: halfName(sellers, sellers+half-1), MarginCoin: k.MarginCoin, Available: need.String()}
	fmt.Fprintf(progress, "%s: traders %s buy (orders of %s) at %s, %s sell at %s (positions before, in contracts: %v)\n",
		k.Symbol, fr.Buyers, contractsText(qty), fr.Buy, fr.Sellers, fr.Sell, positions)
	body := map[string][]byte{}
	for side, p := range map[string]string{"BUY": fr.Buy, "SELL": fr.Sell} {
		body[side], _ = json.Marshal(map[string]any{"symbol": k.Symbol, "side": side, "type": "LIMIT", "price": p,
			"volume": strconv.FormatInt(qty, 10)})
	}
	m := measured{tokens: tokens, created: created, lagRead: futuresLagRead,
		open: func(ctx context.Context, token string) (int, error) { return benchFuturesOpen(ctx, c, token, k.Symbol) },
		send: func(ctx context.Context, plan loadPlan) (benchReport, lagSample, error) {
			return sendCalls(ctx, plan, func(oc *orderConn, i int) (string, benchAnswer, error) {
				// Even orders buy, odd orders sell, from traders of the two
				// halves: every buy meets a sell of the same size.
				t, side := buyers+(i/2)%half, "BUY"
				if i%2 == 1 {
					t, side = sellers+(i/2)%half, "SELL"
				}
				env, err := oc.call("/fe-co-api/order/order_create", tokens[t], body[side])
				return tokens[t], env, err
			})
		}}
	rep, err := runMeasured(ctx, c, f, progress, m)
	rep.Futures = fr
	return rep, err
}
