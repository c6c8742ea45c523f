package httpapi

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"
	"sync"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/spot"
)

// Order entry comes three ways: the REST routes (/order/create, /order/cancel,
// /order/amend, /order/cancel_all), the batch route (/order/batch) and the
// WebSocket methods (order.place, order.cancel, order.amend,
// order.cancelAll; ws_orders.go). All three decode a request into the same
// type with the same strict rules (decodeRequest), validate it the same way,
// call spot.Service through orderEntry and answer through answerOf, so the
// same input gets the same code and message on every path.

// orderEntry is the order-entry calls on the spot service.
type orderEntry struct{ svc *spot.Service }

func (o orderEntry) place(ctx context.Context, uid string, req *OrderCreateReq) (*OrderCreateResp, error) {
	id, err := o.svc.PlaceOrder(ctx, uid, spot.PlaceRequest{Symbol: req.Symbol, Side: req.Side, Type: req.Type,
		Price: req.Price.String(), Volume: req.Volume.String(), QuoteVolume: req.QuoteVolume.String(),
		StopPrice: req.StopPrice.String(), ClientOrderID: req.ClientOrderID, STP: req.STP})
	if err != nil {
		return nil, err
	}
	return &OrderCreateResp{OrderID: id}, nil
}

func (o orderEntry) cancel(ctx context.Context, uid string, req *OrderCancelReq) (*Empty, error) {
	return &Empty{}, o.svc.CancelOrder(ctx, uid, req.Symbol, req.OrderID.String())
}

func (o orderEntry) amend(ctx context.Context, uid string, req *OrderAmendReq) (*Empty, error) {
	return &Empty{}, o.svc.AmendOrder(ctx, uid, req.Symbol, req.OrderID.String(), req.Volume.String())
}

func (o orderEntry) cancelAll(ctx context.Context, uid string, req *OrderSymbolReq) (*Empty, error) {
	return &Empty{}, o.svc.CancelAll(ctx, uid, req.Symbol)
}

// MaxBatchOrders is the most entries /order/batch takes.
const MaxBatchOrders = 20

// OrderBatchReq is /order/batch: 1 to MaxBatchOrders entries, each a
// place or a cancel. The body is read by the usual rules; each entry is
// then decoded and validated on its own, so what is wrong with one entry
// (a missing field, a wrong type, a key given twice) is that entry's
// answer and the others still run.
type OrderBatchReq struct {
	Orders []OrderBatchEntry `json:"orders" v:"required" doc:"1 to 20 entries, each {\"action\":\"place\", ...the fields of /order/create} or {\"action\":\"cancel\", \"order_id\", \"symbol\"}"`
}

// Validate bounds the batch.
func (r *OrderBatchReq) Validate() error {
	if len(r.Orders) > MaxBatchOrders {
		return apperr.Param(fmt.Sprintf("orders: at most %d entries", MaxBatchOrders))
	}
	return nil
}

// OrderBatchEntry is one entry of a batch, kept as sent until it is run.
type OrderBatchEntry struct{ raw []byte }

// UnmarshalJSON keeps the entry's JSON.
func (e *OrderBatchEntry) UnmarshalJSON(b []byte) error {
	e.raw = append([]byte(nil), b...)
	return nil
}

// strictOpaque: the body's strict pass leaves the entry to its own.
func (OrderBatchEntry) strictOpaque() {}

// openAPISchema documents an entry as the union of its two actions.
func (OrderBatchEntry) openAPISchema() map[string]any {
	return map[string]any{
		"oneOf": []any{
			schemaOf(reflect.TypeFor[batchPlace](), map[reflect.Type]bool{}),
			schemaOf(reflect.TypeFor[batchCancel](), map[reflect.Type]bool{}),
		},
		"description": "one order to place or cancel, with the fields (and the answers) of /order/create or /order/cancel",
	}
}

// batchHead reads an entry's action.
type batchHead struct {
	Action string `json:"action" v:"required" doc:"place or cancel"`
}

// batchPlace is a place entry: /order/create's fields.
type batchPlace struct {
	Action string `json:"action" v:"required" doc:"place"`
	OrderCreateReq
}

// batchCancel is a cancel entry: /order/cancel's fields.
type batchCancel struct {
	Action string `json:"action" v:"required" doc:"cancel"`
	OrderCancelReq
}

// OrderBatchResult is the answer to one entry: what /order/create or
// /order/cancel would have answered it.
type OrderBatchResult struct {
	Code     string `json:"code" doc:"\"0\" when the entry succeeded, else its catalogue code"`
	Msg      string `json:"msg"`
	ErrorMsg string `json:"errorMsg,omitempty"`
	Data     any    `json:"data" doc:"a place: {\"order_id\"}; a cancel: {}; a failure: null (or the error's data)"`
}

// batch runs the entries concurrently (their order of execution is not
// promised, as with Binance's batch orders) and answers each in its place.
// One failing, even by a panic, stops none of the others.
func (o orderEntry) batch(ctx context.Context, lang, uid string, entries []OrderBatchEntry, log zerolog.Logger) []OrderBatchResult {
	out := make([]OrderBatchResult, len(entries))
	// Each entry is answered once the engine's journal holds it.
	ctx = spot.AckAtJournal(ctx)
	var wg sync.WaitGroup
	for i, e := range entries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var (
				data any
				err  error
			)
			func() {
				defer func() {
					if p := recover(); p != nil {
						log.Error().Str("panic", fmt.Sprint(p)).Str("stack", string(debug.Stack())).Msg("batch entry panic")
						data, err = nil, apperr.New(apperr.CodeInternal)
					}
				}()
				data, err = o.batchEntry(ctx, uid, e.raw)
			}()
			_, env, ae := answerOf(lang, data, err)
			if ae != nil && ae.Entry.Code == apperr.CodeInternal {
				log.Error().Err(ae.Cause).Int("entry", i).Msg("internal error")
			}
			out[i] = OrderBatchResult{Code: env.Code, Msg: env.Msg, ErrorMsg: env.ErrorMsg, Data: env.Data}
		}()
	}
	wg.Wait()
	return out
}

// batchEntry decodes, validates and runs one entry.
func (o orderEntry) batchEntry(ctx context.Context, uid string, raw []byte) (any, error) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, apperr.Param("order must be a JSON object")
	}
	var head batchHead
	if err := decodeRequest(raw, &head); err != nil {
		return nil, err
	}
	switch head.Action {
	case "place":
		var req batchPlace
		if err := decodeRequest(raw, &req); err != nil {
			return nil, err
		}
		return o.place(ctx, uid, &req.OrderCreateReq)
	case "cancel":
		var req batchCancel
		if err := decodeRequest(raw, &req); err != nil {
			return nil, err
		}
		return o.cancel(ctx, uid, &req.OrderCancelReq)
	}
	return nil, apperr.Param("action: place or cancel")
}
