package spot

import (
	"strings"

	"tenger/internal/store"
)

// OrderView is one order as clients see it: in the REST order lists and
// in the user_orders WebSocket messages, so a pushed order can replace the
// listed one as it is.
type OrderView struct {
	OrderID       string `json:"order_id"`
	ClientOrderID string `json:"client_order_id,omitempty"`
	Symbol        string `json:"symbol"`
	Side          string `json:"side" doc:"BUY or SELL"`
	Type          string `json:"type"`
	Price         string `json:"price" doc:"limit price; 0 for market orders"`
	StopPrice     string `json:"stop_price,omitempty"`
	Triggered     *bool  `json:"triggered,omitempty" doc:"STOP_LIMIT only: true once the last price reached the stop and the order rests in the book"`
	Volume        string `json:"volume" doc:"base quantity ordered; 0 for a market buy by quote"`
	QuoteVolume   string `json:"quote_volume,omitempty" doc:"quote budget of a market buy"`
	DealVolume    string `json:"deal_volume" doc:"base quantity executed"`
	DealMoney     string `json:"deal_money" doc:"quote amount executed"`
	AvgPrice      string `json:"avg_price" doc:"deal_money / deal_volume"`
	Fee           string `json:"fee"`
	FeeCoin       string `json:"fee_coin" doc:"the coin the fee is taken in: base for buys, quote for sells"`
	Status        int    `json:"status" doc:"1 NEW, 2 PARTIALLY_FILLED, 3 FILLED, 4 CANCELLED, 5 REJECTED"`
	StatusText    string `json:"status_text"`
	EndReason     string `json:"end_reason,omitempty" doc:"why a finished order ended: filled, cancelled, ioc_remainder (IOC or market remainder), fok_not_filled, stp (self-trade prevention), dust, post_only_would_take, below_min_notional, stop_would_trigger, ...; absent while open"`
	CreatedAt     int64  `json:"created_at" doc:"Unix ms"`
	UpdatedAt     int64  `json:"updated_at" doc:"Unix ms"`
}

// View returns the order as clients see it; pricePrecision is the pair's
// (for the average price).
func (o Order) View(pricePrecision int32) OrderView {
	v := OrderView{OrderID: o.ID, ClientOrderID: o.ClientOrderID, Symbol: o.Symbol, Side: o.Side, Type: o.Type,
		Price: o.Price.String(), Volume: o.Volume.String(), DealVolume: o.DealVolume.String(), DealMoney: o.DealMoney.String(),
		AvgPrice: o.AvgPrice(pricePrecision).String(), Fee: o.Fee.String(), FeeCoin: o.FeeCoin, Status: int(o.Status),
		StatusText: o.Status.Text(), EndReason: o.Reason, CreatedAt: o.CreatedAt.UnixMilli(), UpdatedAt: o.UpdatedAt.UnixMilli()}
	if o.StopPrice.IsPositive() {
		v.StopPrice = o.StopPrice.String()
	}
	if o.Type == TypeStopLimit {
		v.Triggered = &o.Triggered
	}
	if o.QuoteVolume.IsPositive() {
		v.QuoteVolume = o.QuoteVolume.String()
	}
	return v
}

// AttrEndDeal is set on an order when it ends: the quantity it traded in
// its life. The end is written concurrently with the order's last trades,
// so an order item whose dealVolume is below it still waits for fills.
const AttrEndDeal = "endDeal"

// FillsPending reports whether a finished order item still waits for trades
// its end already counts (see AttrEndDeal); items stored without endDeal
// never wait.
func FillsPending(it store.Item) bool {
	return it.Has(AttrEndDeal) && it.Dec("dealVolume").LessThan(it.Dec(AttrEndDeal))
}

// OrderFromItem reads a stored order item, for readers of the change feed;
// ok is false for any other item.
func OrderFromItem(k store.Key, it store.Item) (o Order, ok bool) {
	if !strings.HasPrefix(k.PK, pkOrder) || k.SK != skOrder || it == nil {
		return Order{}, false
	}
	return orderFromItem(it), true
}
