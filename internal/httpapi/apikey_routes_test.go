package httpapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/apikey"
	"tenger/internal/apperr"
	"tenger/internal/auth"
)

const (
	pKeyList   = "/fe-ex-api/sub_user/openapi/sub_user_api_list"
	pKeyCreate = "/fe-ex-api/openapi/create_open_api"
	pKeyUpdate = "/fe-ex-api/openapi/update_open_api"
	pKeyDelete = "/fe-ex-api/openapi/delete_open_api"
)

// keyEnv is the profile env with the API key routes mounted beside the
// profile's (as ProfileArea mounts them).
func keyEnv(t *testing.T) (*profEnv, *apikey.Service) {
	t.Helper()
	p := newProfEnv(t)
	sealer, err := auth.NewSealer([]byte(strings.Repeat("s", 32)), "tenger-apikey-v1")
	if err != nil {
		t.Fatal(err)
	}
	keys := apikey.New(apikey.Options{Store: p.st, Auth: p.svc, Sealer: sealer, Now: p.clock.Now, Log: zerolog.Nop()})
	mux := http.NewServeMux()
	Mount(mux, p.h.(*Router), NewAPIKeyRouter(keys, Options{Log: zerolog.Nop(), Now: p.clock.Now, Sessions: AuthSessions(p.svc)}))
	p.h = mux
	return p, keys
}

func (p *profEnv) emailCode(t *testing.T, tok, email string) string {
	t.Helper()
	p.ok(t, pEmailCode, withEnv(map[string]any{"operationType": auth.OpWithdrawEmail}), hdr(tok))
	return p.box.last(email, auth.OpWithdrawEmail)
}

func TestAPIKeyRoutesJourney(t *testing.T) {
	p, keys := keyEnv(t)
	p.signUp(t, "bot@example.com", "Passw0rd!x")
	tok := p.signIn(t, "bot@example.com", "Passw0rd!x")

	if d := p.ok(t, pKeyList, withEnv(map[string]any{}), hdr(tok)); len(d["keys"].([]any)) != 0 || d["max"].(float64) != apikey.MaxKeys {
		t.Fatalf("empty list %+v", d)
	}
	body := withEnv(map[string]any{"label": "ccxt", "permissions": []string{"spot"}, "ips": []string{"203.0.113.0/24"}})
	p.fails(t, pKeyCreate, body, hdr(tok), apperr.CodeEmailCodeRequired)
	code := p.emailCode(t, tok, "bot@example.com")
	body["emailCode"] = "000000"
	if code == "000000" {
		body["emailCode"] = "000001"
	}
	p.fails(t, pKeyCreate, body, hdr(tok), apperr.CodeVerifyCodeWrong)
	body["emailCode"] = code // a wrong try leaves the right code valid
	created := p.ok(t, pKeyCreate, body, hdr(tok))
	apiKey, secret := created["apiKey"].(string), created["secretKey"].(string)
	if len(apiKey) != apikey.KeyLen || len(secret) != apikey.KeyLen || created["keyType"] != apikey.TypeHMAC {
		t.Fatalf("created %+v", created)
	}
	list := p.ok(t, pKeyList, withEnv(map[string]any{}), hdr(tok))["keys"].([]any)
	row := list[0].(map[string]any)
	if len(list) != 1 || row["apiKey"] != apiKey || row["label"] != "ccxt" || row["secretKey"] != nil ||
		strings.Join(toStrings(row["permissions"]), ",") != "read,spot" || strings.Join(toStrings(row["ips"]), ",") != "203.0.113.0/24" {
		t.Fatalf("list %+v", list)
	}
	r, err := keys.Resolve(t.Context(), apiKey)
	if err != nil || r.UserID == "" || !r.Verify("a=1", hmacHexOf(secret, "a=1")) {
		t.Fatalf("resolve %+v %v", r, err)
	}

	upd := withEnv(map[string]any{"apiKey": apiKey, "label": "ccxt 2", "permissions": []string{"spot", "withdraw"}, "ips": []string{}})
	p.fails(t, pKeyUpdate, upd, hdr(tok), apperr.CodeAPIKeyWithdrawNeedsIP)
	upd["ips"] = []string{"2001:db8::1"}
	p.fails(t, pKeyUpdate, upd, hdr(tok), apperr.CodeEmailCodeRequired)
	upd["emailCode"] = p.emailCode(t, tok, "bot@example.com")
	if d := p.ok(t, pKeyUpdate, upd, hdr(tok)); d["label"] != "ccxt 2" || strings.Join(toStrings(d["permissions"]), ",") != "read,spot,withdraw" {
		t.Fatalf("updated %+v", d)
	}

	// Another user neither sees nor deletes it.
	p.signUp(t, "other@example.com", "Passw0rd!y")
	other := p.signIn(t, "other@example.com", "Passw0rd!y")
	if d := p.ok(t, pKeyList, withEnv(map[string]any{}), hdr(other)); len(d["keys"].([]any)) != 0 {
		t.Fatalf("other user's list %+v", d)
	}
	p.fails(t, pKeyDelete, withEnv(map[string]any{"apiKey": apiKey}), hdr(other), apperr.CodeAPIKeyNotFound)

	p.ok(t, pKeyDelete, withEnv(map[string]any{"apiKey": apiKey}), hdr(tok))
	if _, err := keys.Resolve(t.Context(), apiKey); err == nil {
		t.Fatal("a deleted key still resolves")
	}
	p.fails(t, pKeyDelete, withEnv(map[string]any{"apiKey": apiKey}), hdr(tok), apperr.CodeAPIKeyNotFound)
}

func TestAPIKeyRoutesRejectBadInput(t *testing.T) {
	p, _ := keyEnv(t)
	p.signUp(t, "bad@example.com", "Passw0rd!x")
	tok := p.signIn(t, "bad@example.com", "Passw0rd!x")
	for _, path := range []string{pKeyList, pKeyCreate, pKeyUpdate, pKeyDelete} {
		p.fails(t, path, withEnv(map[string]any{"label": "x", "apiKey": "x"}), authMode{}, apperr.CodeNotSignedIn)
	}
	cases := []struct {
		path string
		body map[string]any
		code string
	}{
		{pKeyCreate, map[string]any{}, apperr.CodeParam},
		{pKeyCreate, map[string]any{"label": strings.Repeat("x", 300)}, apperr.CodeAPIKeyLabel},
		{pKeyCreate, map[string]any{"label": "x", "permissions": []string{"admin"}}, apperr.CodeAPIKeyPermission},
		{pKeyCreate, map[string]any{"label": "x", "ips": []string{"1.2.3"}}, apperr.CodeAPIKeyIP},
		{pKeyCreate, map[string]any{"label": "x", "ips": []string{strings.Repeat("1", 100)}}, apperr.CodeAPIKeyIP},
		{pKeyCreate, map[string]any{"label": "x", "publicKey": "not a key"}, apperr.CodeAPIKeyPublicKey},
		{pKeyCreate, map[string]any{"label": "x", "emailCode": strings.Repeat("1", 40)}, apperr.CodeParam},
		{pKeyCreate, map[string]any{"label": "x", "permissions": "spot"}, apperr.CodeParam},
		{pKeyUpdate, map[string]any{"label": "x"}, apperr.CodeParam},
		{pKeyUpdate, map[string]any{"apiKey": "nope", "label": "x", "emailCode": "123456"}, apperr.CodeAPIKeyNotFound},
		{pKeyDelete, map[string]any{}, apperr.CodeParam},
		{pKeyDelete, map[string]any{"apiKey": strings.Repeat("A", 64)}, apperr.CodeAPIKeyNotFound},
	}
	for _, c := range cases {
		p.fails(t, c.path, withEnv(c.body), hdr(tok), c.code)
	}
	if d := p.ok(t, pKeyList, withEnv(map[string]any{}), hdr(tok)); len(d["keys"].([]any)) != 0 {
		t.Fatalf("refused calls left keys: %+v", d)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func hmacHexOf(secret, payload string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(payload))
	return hex.EncodeToString(m.Sum(nil))
}
