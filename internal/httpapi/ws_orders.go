package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/push"
	"tenger/internal/spot"
)

// WebSocket order entry, in the manner of Binance's WebSocket API, on the
// socket that carries market data (/ws, and the AWS WebSocket API). A
// connection that sent an accepted auth frame sends request frames
//
//	{"id":"c1","method":"order.place","params":{"symbol":"btcusdt","side":"BUY","type":"LIMIT","price":"30000","volume":"0.01"}}
//
// and gets one answer frame per request, echoing its id:
//
//	{"id":"c1","status":200,"code":"0","msg":"success","data":{"order_id":"1234"}}
//
// params are the body of the method's REST route, decoded and validated by
// the same rules; status, code, msg, errorMsg and data are what that route
// answers (status is its HTTP status). Many requests may be in flight on
// one connection (push.MaxInFlight); answers come back as requests finish.

// WSAnswer is the answer frame of a WebSocket request.
type WSAnswer struct {
	ID       json.RawMessage `json:"id" doc:"the request's id as sent (a string or an integer); null when the frame had no valid id"`
	Status   int             `json:"status" doc:"the HTTP status the REST route answers the same outcome with (200, 429 ...)"`
	Code     string          `json:"code" doc:"\"0\" on success, else the catalogue code (410, 10002, 10011, 140xx ...)"`
	Msg      string          `json:"msg"`
	ErrorMsg string          `json:"errorMsg,omitempty"`
	Data     any             `json:"data" doc:"the REST route's data on success (order.place: {\"order_id\"}; the others: {}); null (or the error's data) on failure"`
}

// WSRequest documents a request frame (the hub and the ws function read it
// in internal/push).
type WSRequest struct {
	ID     json.RawMessage `json:"id" v:"required" doc:"the client's id, echoed in the answer: a string of 1 to 64 characters or an integer"`
	Method string          `json:"method" v:"required" doc:"order.place, order.cancel, order.amend or order.cancelAll"`
	Params map[string]any  `json:"params" doc:"the method's parameters: the body of its REST route (without uaTime/securityInfo)"`
	Lang   string          `json:"lang" doc:"the answer's language: en_US (default) or mn_MN, as exchange-language"`
}

// WSMethod documents one request method of the WebSocket.
type WSMethod struct {
	Name    string
	Summary string
	// Route is the REST route whose request and answer the method shares.
	Route string
	// Params and Data are the Go types of the params and of the answer's data.
	Params, Data reflect.Type
}

// wsMethod is a method with its run function.
type wsMethod struct {
	doc WSMethod
	run func(ctx context.Context, uid string, params []byte) (any, error)
}

func wsMethodOf[Req any, Resp any](name, route, summary string, fn func(ctx context.Context, uid string, req *Req) (Resp, error)) wsMethod {
	return wsMethod{
		doc: WSMethod{Name: name, Summary: summary, Route: route, Params: reflect.TypeFor[Req](), Data: reflect.TypeFor[Resp]()},
		run: func(ctx context.Context, uid string, params []byte) (any, error) {
			req := new(Req)
			if err := decodeRequest(params, req); err != nil {
				return nil, err
			}
			return fn(ctx, uid, req)
		},
	}
}

// wsOrderMethods are the order-entry methods on o.
func wsOrderMethods(o orderEntry) map[string]wsMethod {
	const p = "/fe-ex-api/order/"
	ms := []wsMethod{
		wsMethodOf("order.place", p+"create", "Place a spot order (params of /order/create); data.order_id", o.place),
		wsMethodOf("order.cancel", p+"cancel", "Cancel one of your open orders (params of /order/cancel)", o.cancel),
		wsMethodOf("order.amend", p+"amend", "Reduce one of your open orders to a new total volume (params of /order/amend)", o.amend),
		wsMethodOf("order.cancelAll", p+"cancel_all", "Cancel all your open orders of a symbol, or of every symbol (params of /order/cancel_all)", o.cancelAll),
	}
	out := make(map[string]wsMethod, len(ms))
	for _, m := range ms {
		out[m.doc.Name] = m
	}
	return out
}

// WSOrderMethods documents the order-entry methods (for the OpenAPI
// document's /ws route), sorted by name.
func WSOrderMethods() []WSMethod {
	var out []WSMethod
	for _, m := range wsOrderMethods(orderEntry{}) {
		out = append(out, m.doc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// WSOrderEntry serves the WebSocket's order-entry requests with the spot
// service: its Serve is the push adapters' RequestFunc.
type WSOrderEntry struct {
	methods map[string]wsMethod
	known   string
	log     zerolog.Logger
}

// NewWSOrderEntry returns the order-entry methods on svc; log receives a
// line per request (never its params) and internal errors' causes.
func NewWSOrderEntry(svc *spot.Service, log zerolog.Logger) *WSOrderEntry {
	ms := wsOrderMethods(orderEntry{svc: svc})
	names := make([]string, 0, len(ms))
	for n := range ms {
		names = append(names, n)
	}
	sort.Strings(names)
	return &WSOrderEntry{methods: ms, known: strings.Join(names, ", "), log: log.With().Str("service", "ws-orders").Logger()}
}

var _ push.RequestFunc = (*WSOrderEntry)(nil).Serve

// Serve answers one request (push.RequestFunc): its refusal when the
// transport refused it, else 410 for an unknown method, 10002 when the
// connection is not signed in, and otherwise what the method's REST route
// answers the same params with. It never panics.
func (o *WSOrderEntry) Serve(ctx context.Context, r push.Request) []byte {
	start := time.Now()
	lang := apperr.LangEN
	if r.Lang == apperr.LangMN {
		lang = apperr.LangMN
	}
	data, err := o.run(ctx, r)
	status, env, ae := answerOf(lang, data, err)
	if ae != nil && ae.Entry.Code == apperr.CodeInternal {
		o.log.Error().Err(ae.Cause).Str("method", r.Method).Msg("internal error")
	}
	b, merr := json.Marshal(WSAnswer{ID: r.ID, Status: status, Code: env.Code, Msg: env.Msg, ErrorMsg: env.ErrorMsg, Data: env.Data})
	if merr != nil {
		o.log.Error().Err(merr).Str("method", r.Method).Msg("answer not encodable")
		status, env, _ = answerOf(lang, nil, apperr.New(apperr.CodeInternal))
		b, _ = json.Marshal(WSAnswer{ID: r.ID, Status: status, Code: env.Code, Msg: env.Msg})
	}
	o.log.Info().Str("method", r.Method).Str("uid", r.UserID).Int("status", status).Str("code", env.Code).
		Dur("dur", time.Since(start)).Msg("ws request")
	return b
}

func (o *WSOrderEntry) run(ctx context.Context, r push.Request) (data any, err error) {
	if r.Refused != nil {
		return nil, r.Refused
	}
	m, ok := o.methods[r.Method]
	if !ok {
		return nil, apperr.Param(fmt.Sprintf("method: unknown, one of %s", o.known))
	}
	if r.UserID == "" {
		return nil, apperr.New(apperr.CodeNotSignedIn)
	}
	defer func() {
		if p := recover(); p != nil {
			o.log.Error().Str("panic", fmt.Sprint(p)).Str("stack", string(debug.Stack())).Str("method", r.Method).Msg("ws request panic")
			data, err = nil, apperr.New(apperr.CodeInternal)
		}
	}()
	// Many requests are in flight per connection: each is answered once
	// the engine's journal holds it, not when the store shows it.
	return m.run(spot.AckAtJournal(ctx), r.UserID, r.Params)
}
