package httpapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// The funds routes are all in the OpenAPI document, with their schemas.
func TestFundsRoutesInOpenAPI(t *testing.T) {
	e := newFundsEnv(t)
	opts := Options{Log: zerolog.Nop()}
	doc := OpenAPI("Tenger API", "test", AllRoutes(e.funds.Router(opts), e.funds.DevRouter(opts)))
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, p := range []string{"/fe-ex-api/wallet/get_charge_address", "/fe-ex-api/cost/Getcost", "/fe-ex-api/wallet/get_cost",
		"/fe-ex-api/wallet/confirm_withdraw", "/bank/v2/withdraw-req", "/fe-ex-api/wallet/validate_withdraw_address",
		"/fe-ex-api/wallet/deposit_history", "/fe-ex-api/wallet/withdraw_history", "/dev/chain/deposit", "/dev/chain/mine",
		"/dev/bank/incoming", "/dev/bank/review/assign", "/dev/bank/confirm", "can_withdraw_amount", "addressQRCode"} {
		if !strings.Contains(s, p) {
			t.Errorf("OpenAPI lacks %s", p)
		}
	}
}
