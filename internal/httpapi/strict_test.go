package httpapi

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"tenger/internal/apperr"
)

// strictRouter serves the echo route and a transfer-shaped route that
// answers the amount it decoded.
func strictRouter() *Router {
	r := testRouter()
	Handle(r, "/fe-ex-api/transfer", RouteOpts{}, func(c *Call, req *WalletOTCTransferReq) (map[string]string, error) {
		return map[string]string{"amount": string(req.Amount)}, nil
	})
	return r
}

type strictCase struct {
	name, path, body string
	code, msg        string // msg: a part of the answer's message, or the data's amount on success
}

func runStrict(t *testing.T, cases []strictCase) {
	t.Helper()
	r := strictRouter()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path
			if path == "" {
				path = "/fe-ex-api/echo"
			}
			_, env := doPath(t, r, path, tc.body, nil)
			got := env.Msg
			if env.Code == apperr.CodeOK {
				if m, ok := env.Data.(map[string]any); ok {
					got = fmt.Sprint(m["amount"], m["code"], m["count"])
				}
			}
			if env.Code != tc.code || !strings.Contains(got, tc.msg) {
				t.Fatalf("%s: got %s %q (data %v), want %s with %q", tc.body, env.Code, env.Msg, env.Data, tc.code, tc.msg)
			}
		})
	}
}

const transfer = `"coinSymbol":"USDT","fromAccount":1,"toAccount":2`

// TestDecodeKeysExactAndOnce: keys are the fields' exact names and appear
// once per object; v1 alone matched "AMOUNT" to amount and let the last of
// two equal keys win.
func TestDecodeKeysExactAndOnce(t *testing.T) {
	many := make([]string, 40)
	for i := range many {
		many[i] = fmt.Sprintf(`"k%d":%d`, i, i)
	}
	runStrict(t, []strictCase{
		{"issue example", "/fe-ex-api/transfer", `{"amount":"1","AMOUNT":"2",` + transfer + `}`, "410", `AMOUNT: unknown field: names are case-sensitive, did you mean "amount"?`},
		{"other case alone", "/fe-ex-api/transfer", `{"Amount":"2",` + transfer + `}`, "410", "Amount: unknown field"},
		{"other case of an embedded field", "/fe-ex-api/transfer", `{"amount":"1","coinsymbol":"BTC",` + transfer + `}`, "410", "coinsymbol: unknown field"},
		{"unicode fold", "", `{"email":"a@b.c","tagſ":["x"]}`, "410", `tagſ: unknown field: names are case-sensitive, did you mean "tags"?`},
		{"duplicate", "/fe-ex-api/transfer", `{"amount":"1","amount":"2",` + transfer + `}`, "410", "amount: duplicate key"},
		{"duplicate by escape", "", `{"email":"a@b.c","\u0065mail":"x@y.z"}`, "410", "email: duplicate key"},
		{"duplicate unknown key", "", `{"email":"a@b.c","uaTime":"1","uaTime":"2"}`, "410", "uaTime: duplicate key"},
		{"duplicate in a nested object", "", `{"email":"a@b.c","extra":{"a":{"b":1,"b":2}}}`, "410", "extra.a.b: duplicate key"},
		{"duplicate in an array", "", `{"email":"a@b.c","extra":[1,{"k":1,"k":2}]}`, "410", "extra[1].k: duplicate key"},
		{"duplicate among many keys", "", `{"email":"a@b.c",` + strings.Join(many, ",") + `,"k39":0}`, "410", "k39: duplicate key"},
		{"many distinct keys", "", `{"email":"a@b.c",` + strings.Join(many, ",") + `}`, "0", ""},
		{"unknown keys ignored", "", `{"email":"a@b.c","uaTime":"2026-01-01 00:00:00","securityInfo":"{}","Unknown":1,"extra":{"EMAIL":1}}`, "0", ""},
		{"exact keys", "/fe-ex-api/transfer", `{"amount":"1.5",` + transfer + `}`, "0", "1.5"},
		{"malformed stays malformed", "", `{"email":"a@b.c","code":}`, "410", "malformed JSON"},
	})
}

// TestDecodeRefusesInvalidUTF8: text that is not UTF-8, or a lone UTF-16
// surrogate escape, is refused naming the field; v1 stored U+FFFD.
func TestDecodeRefusesInvalidUTF8(t *testing.T) {
	runStrict(t, []strictCase{
		{"bad byte", "", "{\"email\":\"a@b.c\",\"code\":\"ab\xffcd\"}", "410", "code: must be valid UTF-8 text"},
		{"truncated sequence", "", "{\"email\":\"a\xd0@b.c\"}", "410", "email: must be valid UTF-8 text"},
		{"overlong encoding", "", "{\"email\":\"a@b.c\",\"code\":\"\xc0\xaf\"}", "410", "code: must be valid UTF-8 text"},
		{"encoded surrogate", "", "{\"email\":\"a@b.c\",\"code\":\"\xed\xa0\x80\"}", "410", "code: must be valid UTF-8 text"},
		{"lone high surrogate", "", `{"email":"a@b.c","code":"\ud800"}`, "410", "code: must be valid UTF-8 text"},
		{"high surrogate then text", "", `{"email":"a@b.c","code":"\ud800\u0041"}`, "410", "code: must be valid UTF-8 text"},
		{"lone low surrogate", "", `{"email":"a@b.c","code":"x\udc00"}`, "410", "code: must be valid UTF-8 text"},
		{"in an array", "", "{\"email\":\"a@b.c\",\"tags\":[\"ok\",\"\xff\"]}", "410", "tags[1]: must be valid UTF-8 text"},
		{"in an ignored field", "", "{\"email\":\"a@b.c\",\"note\":\"\xff\"}", "410", "note: must be valid UTF-8 text"},
		{"in a key", "", "{\"email\":\"a@b.c\",\"k\xff\":1}", "410", "body: a field name is not valid UTF-8 text"},
		{"surrogate pair", "", `{"email":"a@b.c","code":"\ud83d\ude00"}`, "0", "😀"},
		{"multi-byte text", "", `{"email":"a@b.c","code":"Батболд ✓"}`, "0", "Батболд ✓"},
	})
}

// TestNumberRulesOneAnswer: an integer field takes ^-?[0-9]+$ within int64
// as a JSON number or a string alike; an amount keeps the exact text of
// either form, so both forms reach the same rule and the same answer.
func TestNumberRulesOneAnswer(t *testing.T) {
	long := strings.Repeat("9", 400)
	runStrict(t, []strictCase{
		{"plus sign refused", "", `{"email":"a@b.c","count":"+5"}`, "410", "count: must be an integer"},
		{"spaces refused", "", `{"email":"a@b.c","count":" 5"}`, "410", "count: must be an integer"},
		{"fraction refused", "", `{"email":"a@b.c","count":5.0}`, "410", "count: must be an integer"},
		{"exponent refused", "", `{"email":"a@b.c","count":"5e2"}`, "410", "count: must be an integer"},
		{"too large as a number", "", `{"email":"a@b.c","count":99999999999999999999}`, "410", "count: must be an integer"},
		{"too large as a string", "", `{"email":"a@b.c","count":"99999999999999999999"}`, "410", "count: must be an integer"},
		{"integer as a number", "", `{"email":"a@b.c","count":-17}`, "0", "-17"},
		{"integer as a string", "", `{"email":"a@b.c","count":"-17"}`, "0", "-17"},
		{"long amount as a string", "/fe-ex-api/transfer", `{"amount":"` + long + `",` + transfer + `}`, apperr.CodeWalletAmountTooLong, ""},
		{"long amount as a number", "/fe-ex-api/transfer", `{"amount":` + long + `,` + transfer + `}`, apperr.CodeWalletAmountTooLong, ""},
		{"huge exponent as a number", "/fe-ex-api/transfer", `{"amount":1e400,` + transfer + `}`, "0", "1e400"},
		{"huge exponent as a string", "/fe-ex-api/transfer", `{"amount":"1e400",` + transfer + `}`, "0", "1e400"},
		{"amount text kept", "/fe-ex-api/transfer", `{"amount":1.50,` + transfer + `}`, "0", "1.50"},
		{"code as a number", "", `{"email":"a@b.c","code":123456}`, "0", "123456"},
	})
}

// TestDecodeQueryStrict: GET parameters follow the body's rules.
func TestDecodeQueryStrict(t *testing.T) {
	type q struct {
		Symbol FlexString `json:"symbol"`
		Limit  FlexInt    `json:"limit"`
	}
	cases := map[string]string{
		"symbol=btcusdt&symbol=ethusdt": "symbol: duplicate key",
		"SYMBOL=btcusdt":                "SYMBOL: unknown field",
		"symbol=%FF":                    "symbol: must be valid UTF-8 text",
		"%FF=1":                         "not valid UTF-8",
		"limit=%2B5":                    "limit: must be an integer",
		"symbol=btcusdt&limit=5":        "",
	}
	for query, want := range cases {
		var dst q
		err := decodeQuery(httptest.NewRequest(http.MethodGet, "/x?"+query, nil), &dst)
		if want == "" {
			if err != nil || dst.Symbol != "btcusdt" || dst.Limit.V != 5 {
				t.Errorf("%s: %v %+v", query, err, dst)
			}
			continue
		}
		if ae := apperr.As(err); err == nil || ae.Entry.Code != apperr.CodeParam || !strings.Contains(ae.Entry.EN, want) {
			t.Errorf("%s: %v, want 410 with %q", query, err, want)
		}
	}
}

// TestStrictSchemaFollowsV1Fields: the pass knows the keys v1 decodes into
// (tags, Go names, promoted and shadowed fields), so it never refuses a
// key v1 matches exactly nor misses one it matches by case.
func TestStrictSchemaFollowsV1Fields(t *testing.T) {
	type Inner struct {
		A string `json:"a"`
		B string
		C string `json:"c"`
	}
	type outer struct {
		Inner
		C       string `json:"c"` // shadows Inner.C
		Skip    string `json:"-"`
		Dash    string `json:"-,"`
		private string
		Nested  *struct {
			X string `json:"x"`
		} `json:"nested"`
		List []struct {
			Y string `json:"y"`
		} `json:"list"`
		Map map[string]struct {
			Z string `json:"z"`
		} `json:"map"`
	}
	s := schemaFor(reflect.TypeFor[*outer]())
	for _, k := range []string{"a", "B", "c", "-", "nested", "list", "map"} {
		if _, ok := s.fields[k]; !ok {
			t.Errorf("key %q missing from %v", k, s.fields)
		}
	}
	for _, k := range []string{"Skip", "private", "Inner"} {
		if _, ok := s.fields[k]; ok {
			t.Errorf("key %q should not be a field", k)
		}
	}
	for body, want := range map[string]string{
		`{"nested":{"X":1}}`:       "nested.X: unknown field",
		`{"list":[{"y":1,"Y":2}]}`: "list[0].Y: unknown field",
		`{"map":{"k":{"Z":1}}}`:    "map.k.Z: unknown field",
		`{"map":{"K":{"z":1}}}`:    "",
		`{"b":"x"}`:                "b: unknown field",
	} {
		err := checkStrict([]byte(body), reflect.TypeFor[*outer]())
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", body, err)
			}
			continue
		}
		if ae := apperr.As(err); err == nil || !strings.Contains(ae.Entry.EN, want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}
