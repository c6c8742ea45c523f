package events

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func readSample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("samples", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSampleMessagesDecode(t *testing.T) {
	cases := map[string]func(Envelope) error{
		"msg_order_place.json":     func(e Envelope) error { _, err := DecodeOrderPlace(e); return err },
		"msg_order_cancel.json":    func(e Envelope) error { _, err := DecodeOrderCancel(e); return err },
		"msg_engine_accepted.json": func(e Envelope) error { _, err := DecodeAccepted(e); return err },
		"msg_engine_trade.json":    func(e Envelope) error { _, err := DecodeTrade(e); return err },
		"msg_engine_done.json":     func(e Envelope) error { _, err := DecodeDone(e); return err },
		"msg_engine_rejected.json": func(e Envelope) error { _, err := DecodeRejected(e); return err },
	}
	for name, decode := range cases {
		e, err := Decode(readSample(t, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := decode(e); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	e, _ := Decode(readSample(t, "msg_order_place.json"))
	o, _ := DecodeOrderPlace(e)
	if o.Symbol != "btcusdt" || o.Price != "67250.5" || o.Volume != "0.015" || e.CorrelationID == "" {
		t.Errorf("decoded order = %+v (envelope %+v)", o, e)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	in := OrderPlace{OrderID: "o-1", UserID: "u-1", Symbol: "ethusdt", Side: SideSell, Type: TypeLimit, Price: "3100.25", Volume: "2"}
	b, err := Encode(TypeOrderPlace, in.OrderID, "cid-1", 1700000000000, in)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	out, err := DecodeOrderPlace(e)
	if err != nil || out != in || e.Version != Version || e.CorrelationID != "cid-1" {
		t.Fatalf("round trip: %+v %+v %v", out, e, err)
	}
}

func TestOrderPlaceValidation(t *testing.T) {
	ok := OrderPlace{OrderID: "o-1", UserID: "u-1", Symbol: "btcusdt", Side: SideBuy, Type: TypeLimit, Price: "1.5", Volume: "2"}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid order refused: %v", err)
	}
	bad := map[string]func(o *OrderPlace){
		"no side":               func(o *OrderPlace) { o.Side = "" },
		"upper-case symbol":     func(o *OrderPlace) { o.Symbol = "BTCUSDT" },
		"float-like exponent":   func(o *OrderPlace) { o.Price = "1e3" },
		"zero volume":           func(o *OrderPlace) { o.Volume = "0" },
		"negative price":        func(o *OrderPlace) { o.Price = "-1" },
		"too many decimals":     func(o *OrderPlace) { o.Price = "0.1234567890123456789" },
		"limit with funds":      func(o *OrderPlace) { o.Funds = "10" },
		"market with price":     func(o *OrderPlace) { o.Type = TypeMarket },
		"market GTC":            func(o *OrderPlace) { o.Type, o.Price, o.TimeInForce = TypeMarket, "", TIFGTC },
		"market volume+funds":   func(o *OrderPlace) { o.Type, o.Price, o.Funds = TypeMarket, "", "5" },
		"unknown type":          func(o *OrderPlace) { o.Type = "STOP" },
		"unknown time-in-force": func(o *OrderPlace) { o.TimeInForce = "DAY" },
		"missing order id":      func(o *OrderPlace) { o.OrderID = "" },
	}
	for name, mutate := range bad {
		o := ok
		mutate(&o)
		if err := o.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Validate = %v, want ErrInvalid", name, err)
		}
	}
	for name, o := range map[string]OrderPlace{
		"market buy by funds": {OrderID: "o-2", UserID: "u-1", Symbol: "btcusdt", Side: SideBuy, Type: TypeMarket, Funds: "100", TimeInForce: TIFIOC},
		"stop-limit FOK":      {OrderID: "o-3", UserID: "u-1", Symbol: "btcusdt", Side: SideSell, Type: TypeLimit, Price: "60000", StopPrice: "60100", Volume: "1", TimeInForce: TIFFOK},
		"post-only with stp":  {OrderID: "o-4", UserID: "u-1", Symbol: "btcusdt", Side: SideBuy, Type: TypeLimit, Price: "1", Volume: "1", TimeInForce: TIFPostOnly, STP: STPDecrement},
	} {
		if err := o.Validate(); err != nil {
			t.Errorf("%s refused: %v", name, err)
		}
	}
}

func TestDecodeRefusesBadEnvelopes(t *testing.T) {
	for name, body := range map[string]string{
		"not json":       `{"type":`,
		"no type":        `{"version":1,"id":"x","payload":{}}`,
		"future version": `{"type":"order.place","version":2,"id":"x","payload":{}}`,
		"no id":          `{"type":"order.place","version":1,"payload":{}}`,
		"no payload":     `{"type":"order.place","version":1,"id":"x"}`,
	} {
		if _, err := Decode([]byte(body)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Decode = %v, want ErrInvalid", name, err)
		}
	}
	e, err := Decode([]byte(`{"type":"order.place","version":1,"id":"x","payload":{"orderId":"o","userId":"u","symbol":"btcusdt","side":"BUY","type":"LIMIT","price":"1","volume":"1","colour":"red"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeOrderPlace(e); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "colour") {
		t.Errorf("unknown field accepted: %v", err)
	}
	if _, err := DecodeTrade(e); !errors.Is(err, ErrInvalid) {
		t.Errorf("wrong type accepted as trade: %v", err)
	}
}

func encode(t *testing.T, typ string, payload any) Envelope {
	t.Helper()
	b, err := Encode(typ, "btcusdt:1:0", "", 1, payload)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEngineEventRules(t *testing.T) {
	done := Done{Symbol: "btcusdt", Seq: 1, OrderID: "o", UserID: "u", Side: SideBuy, Reason: ReasonFilled, Remaining: "0", Filled: "1.5", Quote: "100"}
	if _, err := DecodeDone(encode(t, TypeDone, done)); err != nil {
		t.Errorf("filled: %v", err)
	}
	bad := done
	bad.Remaining = "0.5"
	if _, err := DecodeDone(encode(t, TypeDone, bad)); !errors.Is(err, ErrInvalid) {
		t.Errorf("filled with remainder accepted: %v", err)
	}
	bad = done
	bad.Reason = ReasonBelowMinQty // a reject reason is not a done reason
	if _, err := DecodeDone(encode(t, TypeDone, bad)); !errors.Is(err, ErrInvalid) {
		t.Errorf("reject reason accepted on done: %v", err)
	}
	rej := Rejected{Symbol: "btcusdt", Seq: 2, OrderID: "o", UserID: "u", Reason: ReasonFilled}
	if _, err := DecodeRejected(encode(t, TypeRejected, rej)); !errors.Is(err, ErrInvalid) {
		t.Errorf("done reason accepted on reject: %v", err)
	}
	am := Amended{Symbol: "btcusdt", Seq: 3, OrderID: "o", UserID: "u", Side: SideSell, Price: "2", Remaining: "0.3", Reason: ReasonSelfTrade}
	if _, err := DecodeAmended(encode(t, TypeAmended, am)); err != nil {
		t.Errorf("amended: %v", err)
	}
	am.Reason = ReasonCancelled
	if _, err := DecodeAmended(encode(t, TypeAmended, am)); !errors.Is(err, ErrInvalid) {
		t.Errorf("amended with a done reason accepted: %v", err)
	}
	tr := Triggered{Symbol: "btcusdt", Seq: 4, OrderID: "o", UserID: "u", Side: SideBuy, Price: "3", Volume: "1"}
	if _, err := DecodeTriggered(encode(t, TypeTriggered, tr)); err != nil {
		t.Errorf("triggered: %v", err)
	}
	acc := Accepted{Symbol: "btcusdt", Seq: 5, OrderID: "o", UserID: "u", Side: SideBuy, Funds: "25"}
	if _, err := DecodeAccepted(encode(t, TypeAccepted, acc)); err != nil {
		t.Errorf("accepted market buy by funds: %v", err)
	}
	acc.Funds = ""
	if _, err := DecodeAccepted(encode(t, TypeAccepted, acc)); !errors.Is(err, ErrInvalid) {
		t.Errorf("accepted without volume or funds: %v", err)
	}
	tr2 := Trade{Symbol: "btcusdt", Seq: 6, TradeID: "t", Price: "1", Volume: "1", Quote: "1", TakerSide: SideBuy,
		MakerOrderID: "m", MakerUserID: "mu", TakerOrderID: "k", TakerUserID: "ku"}
	if _, err := DecodeTrade(encode(t, TypeTrade, tr2)); err != nil {
		t.Errorf("trade: %v", err)
	}
	tr2.Seq = 0
	if _, err := DecodeTrade(encode(t, TypeTrade, tr2)); !errors.Is(err, ErrInvalid) {
		t.Errorf("trade without seq accepted: %v", err)
	}
}

func TestCancelAllAndAmendCommands(t *testing.T) {
	if _, err := DecodeOrderCancelAll(encode(t, TypeOrderCancelAll, OrderCancelAll{UserID: "u", Symbol: "btcusdt"})); err != nil {
		t.Errorf("cancel_all: %v", err)
	}
	if _, err := DecodeOrderCancelAll(encode(t, TypeOrderCancelAll, OrderCancelAll{UserID: "u"})); !errors.Is(err, ErrInvalid) {
		t.Errorf("cancel_all without a book accepted: %v", err)
	}
	am := OrderAmend{OrderID: "o", UserID: "u", Symbol: "btcusdt", Volume: "0.5"}
	if _, err := DecodeOrderAmend(encode(t, TypeOrderAmend, am)); err != nil {
		t.Errorf("amend keeping the price: %v", err)
	}
	am.Price = "0"
	if _, err := DecodeOrderAmend(encode(t, TypeOrderAmend, am)); !errors.Is(err, ErrInvalid) {
		t.Errorf("amend to price 0 accepted: %v", err)
	}
}

func TestWithdrawalProblems(t *testing.T) {
	var step WorkflowStep
	if err := json.Unmarshal(readSample(t, "workflow_validate.json"), &step); err != nil {
		t.Fatal(err)
	}
	if p := step.Withdrawal.Problems(); len(p) != 0 || step.Step != StepValidate {
		t.Fatalf("sample withdrawal: %v", p)
	}
	bank := Withdrawal{WithdrawalID: "w", UserID: "u", Coin: "MNT", Amount: "50000", Fee: "0", Rail: RailBank, BankAccountID: "b-1"}
	if p := bank.Problems(); len(p) != 0 {
		t.Errorf("bank withdrawal: %v", p)
	}
	bad := Withdrawal{Coin: "usdt", Amount: "-3", Fee: "x", Rail: RailBank, Address: "TQ7k2yWb9Xr4sV8m"}
	p := bad.Problems()
	for _, want := range []string{"withdrawalId", "userId", "coin", "amount", "fee", "bankAccountId is required", "only for chain"} {
		found := false
		for _, s := range p {
			found = found || strings.Contains(s, want)
		}
		if !found {
			t.Errorf("problems %q lack %q", p, want)
		}
	}
}

// TestSchemasMatchTypes keeps schemas/v1 in step with the Go types: the
// same property names, and required exactly the fields without omitempty.
func TestSchemasMatchTypes(t *testing.T) {
	types := map[string]reflect.Type{
		"envelope":         reflect.TypeFor[Envelope](),
		"order_place":      reflect.TypeFor[OrderPlace](),
		"order_cancel":     reflect.TypeFor[OrderCancel](),
		"engine_accepted":  reflect.TypeFor[Accepted](),
		"engine_trade":     reflect.TypeFor[Trade](),
		"engine_done":      reflect.TypeFor[Done](),
		"engine_rejected":  reflect.TypeFor[Rejected](),
		"engine_amended":   reflect.TypeFor[Amended](),
		"engine_triggered": reflect.TypeFor[Triggered](),
		"order_cancel_all": reflect.TypeFor[OrderCancelAll](),
		"order_amend":      reflect.TypeFor[OrderAmend](),
		"withdrawal":       reflect.TypeFor[Withdrawal](),
		"workflow_step":    reflect.TypeFor[WorkflowStep](),
	}
	files, _ := filepath.Glob(filepath.Join("schemas", "v1", "*.schema.json"))
	if len(files) != len(types) {
		t.Errorf("schema files = %d, want one per type (%d)", len(files), len(types))
	}
	for file, typ := range types {
		b, err := os.ReadFile(filepath.Join("schemas", "v1", file+".schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Type                 string
			Required             []string
			Properties           map[string]any
			AdditionalProperties *bool
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var props, required []string
		for i := 0; i < typ.NumField(); i++ {
			name, opts, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			props = append(props, name)
			if !strings.Contains(opts, "omitempty") {
				required = append(required, name)
			}
		}
		var schemaProps []string
		for p := range s.Properties {
			schemaProps = append(schemaProps, p)
		}
		sort.Strings(props)
		sort.Strings(required)
		sort.Strings(schemaProps)
		sort.Strings(s.Required)
		if !reflect.DeepEqual(props, schemaProps) {
			t.Errorf("%s: schema properties %v, Go fields %v", file, schemaProps, props)
		}
		if !reflect.DeepEqual(required, s.Required) {
			t.Errorf("%s: schema required %v, Go required %v", file, s.Required, required)
		}
		if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
			t.Errorf("%s: must be a closed object schema", file)
		}
	}
}
