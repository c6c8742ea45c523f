package httpapi

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestEnvelopeStartsWithCode: the AWS runtime counts refusals by reading
// the code where the envelope writes it, first (awslambda.Outcome).
func TestEnvelopeStartsWithCode(t *testing.T) {
	b, err := json.Marshal(Envelope{Code: "14003", Msg: "Insufficient balance"})
	if err != nil || !strings.HasPrefix(string(b), `{"code":"14003",`) {
		t.Fatalf("%s %v", b, err)
	}
}
