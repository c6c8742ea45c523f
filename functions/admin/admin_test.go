package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/corporate"
	"tenger/internal/earn"
	"tenger/internal/httpapi"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/p2p"
	"tenger/internal/platform"
	"tenger/internal/store"
	"tenger/internal/store/dynamo"
)

// anyUpload lets the test's own corporate applications attach any file:
// this test is about the review, and the uploads' checks are the profile
// function's (functions/profile).
type anyUpload struct{}

func (anyUpload) CheckOwned(context.Context, string, ...string) error { return nil }

// adminEnv is the admin function and the profile function on one table of
// DynamoDB Local, each checked against its own key space.
type adminEnv struct {
	st      *dynamo.Store
	box     *fntest.Recorder
	d       *platform.Deps
	profile awslambda.HTTPFunc
	admin   func(context.Context, json.RawMessage) (Response, error)
	logs    bytes.Buffer
	calls   int
}

func newAdminEnv(t *testing.T) *adminEnv {
	t.Helper()
	e := &adminEnv{st: fntest.Table(t, "admin"), box: &fntest.Recorder{}}
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	e.d = &platform.Deps{Store: e.st, Notify: e.box, Log: zerolog.Nop(), Now: time.Now, Coins: cc, Markets: markets.Defaults(),
		Config: platform.Config{Stage: "test", SecureCookies: true},
		// The profile function seals API keys with it; a cancellation
		// deletes them.
		SecretKey: []byte("admin-test-auth-key-0123456789abcdef012345")}
	mux := http.NewServeMux()
	httpapi.Mount(mux, e.d.ProfileArea()...)
	e.profile = awslambda.NewRuntime("profile", &e.logs).HTTP(mux)
	// The admin function builds its services on its own Deps, as its main
	// does on platform.NewAWS's.
	ad := &platform.Deps{Store: e.st, Notify: e.box, Log: zerolog.Nop(), Now: time.Now, Coins: cc, Markets: markets.Defaults(),
		Config: platform.Config{Stage: "test", SecureCookies: true}}
	e.admin = handler(awslambda.NewRuntime("admin", &e.logs), newOps(ad))
	return e
}

// invoke calls the admin function as `aws lambda invoke` does: the payload
// as sent, one request id per invocation; the answer goes through JSON as
// Lambda returns it.
func (e *adminEnv) invoke(t *testing.T, payload string) (Response, map[string]any) {
	t.Helper()
	e.calls++
	ctx := lambdacontext.NewContext(context.Background(), &lambdacontext.LambdaContext{
		AwsRequestID:       fmt.Sprintf("4f1c2d3e-5a6b-4c7d-8e9f-%012d", e.calls),
		InvokedFunctionArn: "arn:aws:lambda:ap-northeast-2:111111111111:function:tenger-test-admin:live"})
	resp, err := e.admin(ctx, json.RawMessage(payload))
	if err != nil {
		t.Fatalf("%s: function error %v", payload, err)
	}
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return resp, out
}

// ok invokes and requires success, answering the result.
func (e *adminEnv) ok(t *testing.T, payload string) any {
	t.Helper()
	resp, out := e.invoke(t, payload)
	if !resp.OK {
		t.Fatalf("%s: %+v", payload, resp)
	}
	return out["result"]
}

// refusedWith invokes and requires a refusal with code.
func (e *adminEnv) refusedWith(t *testing.T, payload, code string) {
	t.Helper()
	resp, _ := e.invoke(t, payload)
	if resp.OK || resp.Code != code || resp.Error == "" {
		t.Fatalf("%s: %+v, want refused with %s", payload, resp, code)
	}
}

// sample reads an admin payload of events/samples with its placeholders
// filled.
func sample(t *testing.T, name string, fill map[string]string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", name))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for k, v := range fill {
		s = strings.ReplaceAll(s, "{{"+k+"}}", v)
	}
	if strings.Contains(s, "{{") {
		t.Fatalf("%s: unfilled placeholder in %s", name, s)
	}
	return s
}

// signUp registers email through the profile function and signs in.
func (e *adminEnv) signUp(t *testing.T, email string) (uid, token string) {
	t.Helper()
	return fntest.SignUp(t, e.profile, e.box, email)
}

// login is the recorded sign-in event of email.
func (e *adminEnv) login(t *testing.T, email string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	return fntest.Login(t, email)
}

// at is a recorded event of the signed-in user's on another path.
func at(t *testing.T, token, path, body string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	return fntest.At(t, token, path, body)
}

// submitCorporate saves and submits a complete corporate application of
// uid (the test's own calls, outside any function).
func (e *adminEnv) submitCorporate(t *testing.T, uid string) {
	t.Helper()
	ctx := context.Background()
	svc := corporate.New(corporate.Options{Store: e.st, Accounts: e.d.Auth(), Attachments: anyUpload{}, Log: zerolog.Nop()})
	yes, no := true, false
	steps := []func() (corporate.View, error){
		func() (corporate.View, error) {
			return svc.SaveApplicant(ctx, uid, corporate.Applicant{FullName: "Bat-Erdene Dorj", Position: "CEO", Email: "ceo@steppe.mn", Phone: "+97688001122"})
		},
		func() (corporate.View, error) {
			return svc.SaveCompany(ctx, uid, corporate.Company{EntityName: "Steppe Trading " + uid, RegistrationNumber: "REG-" + uid,
				RegistrationDate: "2020-01-02", ContactNumber: "+97677112233", SourceOfFunds: "Revenue", BusinessType: "Mining",
				ApplyReason: "Treasury", RegisteredCountry: "MN", RegisteredCity: "Ulaanbaatar", RegisteredStreet: "Peace Ave 1",
				BusinessAddressSame: &yes})
		},
		func() (corporate.View, error) {
			return svc.SavePeople(ctx, uid, corporate.People{People: []corporate.Person{{Name: "Bat-Erdene Dorj", Roles: []string{"director", "owner"},
				Nationality: "MN", DateOfBirth: "1980-01-01", OwnershipPercent: "100"}}, AllOwnersListed: true})
		},
		func() (corporate.View, error) {
			return svc.SaveDocuments(ctx, uid, corporate.Documents{Files: []corporate.File{
				{Kind: corporate.DocIncorporation, UploadID: "inc" + uid}, {Kind: corporate.DocArticles, UploadID: "art" + uid},
				{Kind: corporate.DocProofOfAddress, UploadID: "poa" + uid}, {Kind: corporate.DocRepresentativeID, UploadID: "id" + uid, PersonID: "p1"}}})
		},
		func() (corporate.View, error) {
			return svc.SaveQuestionnaire(ctx, uid, corporate.Questionnaire{MonthlyVolume: "under_10k", Purposes: []string{"trading"},
				PEP: &no, Sanctions: &no, AccuracyConfirmed: true})
		},
		func() (corporate.View, error) { return svc.Submit(ctx, uid) },
	}
	for i, step := range steps {
		if _, err := step(); err != nil {
			t.Fatalf("%s corporate step %d: %v", uid, i+1, err)
		}
	}
}

// TestAdminOperations drives every operation of the admin function on
// what users did through the profile function: a verification decision, a
// corporate review, a support answer, and a cancelled account reopened.
// Each decision keeps the operator's name with the invocation's request
// id; refusals are answers, not function errors.
func TestAdminOperations(t *testing.T) {
	e := newAdminEnv(t)
	const aliceEmail, bobEmail = "alice.user@tenger.example", "bob.user@tenger.example"
	alice, aliceToken := e.signUp(t, aliceEmail)
	bob, bobToken := e.signUp(t, bobEmail)

	// Payloads that are not actions are refused.
	e.refusedWith(t, `{"op":"kyc.approve","uid":"`+alice+`"}`, apperr.CodeParam)                        // no by
	e.refusedWith(t, `{"op":"kyc.approve","uid":"`+alice+`","by":"alice","lvl":"x"}`, apperr.CodeParam) // unknown field
	e.refusedWith(t, `{"op":"kyc.delete","uid":"`+alice+`","by":"alice"}`, apperr.CodeParam)
	e.refusedWith(t, `{}`, apperr.CodeParam)

	// Identity verification: approved by an operator, the profile follows.
	resp, out := e.invoke(t, sample(t, "lambda_admin_kyc_approve.json", map[string]string{"uid": alice, "by": "erdene.ops"}))
	if !resp.OK || !strings.HasPrefix(resp.RecordedBy, "erdene.ops [aws 4f1c2d3e-") || resp.RequestID == "" ||
		out["result"].(map[string]any)["status"] != "verified" || out["result"].(map[string]any)["verifiedLevel"] != "basic" {
		t.Fatalf("kyc.approve %+v", out)
	}
	if p, err := e.st.Get(context.Background(), auth.ProfileKey(alice)); err != nil || p.Int(auth.AttrKYCStatus) != 2 {
		t.Fatalf("alice's profile after the approval: %v %v", p, err)
	}
	show := e.ok(t, `{"op":"kyc.show","uid":"`+alice+`"}`).(map[string]any)
	hist := show["history"].([]any)
	if len(hist) != 1 || hist[0].(map[string]any)["by"] != resp.RecordedBy || hist[0].(map[string]any)["source"] != "operator" ||
		!strings.Contains(hist[0].(map[string]any)["clientComment"].(string), "video call") {
		t.Fatalf("kyc.show history %+v", hist)
	}
	if list := e.ok(t, `{"op":"kyc.list","status":"verified"}`).([]any); len(list) != 1 || list[0].(map[string]any)["userId"] != alice {
		t.Fatalf("kyc.list verified %+v", list)
	}
	e.refusedWith(t, `{"op":"kyc.reject","uid":"`+bob+`","by":"erdene.ops"}`, apperr.CodeKYCFormField) // no reason
	rej := e.ok(t, `{"op":"kyc.reject","uid":"`+bob+`","by":"erdene.ops","reason":"The document photo is blurred",`+
		`"labels":["UNSATISFACTORY_PHOTOS"],"rejectType":"retry"}`).(map[string]any)
	if rej["status"] != "rejected" || rej["rejectReason"] != "The document photo is blurred" || rej["reviewRejectType"] != "RETRY" {
		t.Fatalf("kyc.reject %+v", rej)
	}

	// Corporate review: alice's approved (an enterprise account), bob's
	// rejected with reasons.
	e.submitCorporate(t, alice)
	e.submitCorporate(t, bob)
	if list := e.ok(t, `{"op":"corporate.list"}`).([]any); len(list) != 2 || list[0].(map[string]any)["files"] != float64(4) {
		t.Fatalf("corporate.list %+v", list)
	}
	app := e.ok(t, `{"op":"corporate.approve","uid":"`+alice+`","by":"saraa.ops"}`).(map[string]any)
	if app["status"] != "approved" || !strings.HasPrefix(app["reviewedBy"].(string), "saraa.ops [aws ") {
		t.Fatalf("corporate.approve %+v", app)
	}
	if p, err := e.st.Get(context.Background(), auth.ProfileKey(alice)); err != nil || p.Str("accountType") != auth.AccountEnterprise {
		t.Fatalf("alice after the approval: %v %v", p, err)
	}
	e.refusedWith(t, `{"op":"corporate.approve","uid":"`+alice+`","by":"saraa.ops"}`, apperr.CodeCorpNotPending)
	app = e.ok(t, sample(t, "lambda_admin_corporate_reject.json", map[string]string{"uid": bob, "by": "saraa.ops"})).(map[string]any)
	if app["status"] != "rejected" || len(app["reasons"].([]any)) != 2 {
		t.Fatalf("corporate.reject %+v", app)
	}
	if full := e.ok(t, `{"op":"corporate.show","uid":"`+bob+`"}`).(map[string]any); full["company"] == nil || len(full["history"].([]any)) < 2 {
		t.Fatalf("corporate.show %+v", full)
	}

	// Support: alice's ticket answered (she is told by e-mail), then closed.
	ticket := fntest.SampleEvent(t, "http_question_create_problem.json", map[string]string{"token": aliceToken, "attachment": ""})
	var created struct{ ID string }
	fntest.Call(t, e.profile, ticket, &created)
	queue := e.ok(t, `{"op":"support.list"}`).([]any)
	if len(queue) != 1 || queue[0].(map[string]any)["id"] != created.ID || queue[0].(map[string]any)["uid"] != alice {
		t.Fatalf("support.list %+v", queue)
	}
	told := len(e.box.Messages(aliceEmail))
	reply := e.ok(t, sample(t, "lambda_admin_support_reply.json", map[string]string{"id": created.ID, "by": "tuya.support"})).(map[string]any)
	thread := reply["thread"].([]any)
	if reply["status"] != "answered" || len(thread) != 2 || thread[1].(map[string]any)["by"] != "support" ||
		!strings.HasPrefix(thread[1].(map[string]any)["operator"].(string), "tuya.support [aws ") {
		t.Fatalf("support.reply %+v", reply)
	}
	if msgs := e.box.Messages(aliceEmail); len(msgs) != told+1 || !strings.Contains(msgs[len(msgs)-1].Text, created.ID) {
		t.Fatalf("alice was not told of the answer: %+v", msgs)
	}
	// The owner reads the answer through the profile function.
	var detail struct {
		Status string
		Thread []struct{ By, Text string }
	}
	fntest.Call(t, e.profile, fntest.SampleEvent(t, "http_question_details_problem.json", map[string]string{"token": aliceToken, "id": created.ID}), &detail)
	if detail.Status != "answered" || len(detail.Thread) != 2 || !strings.Contains(detail.Thread[1].Text, "Khan Bank") {
		t.Fatalf("the owner's view %+v", detail)
	}
	closed := e.ok(t, `{"op":"support.close","id":"`+created.ID+`","by":"tuya.support"}`).(map[string]any)
	if closed["status"] != "closed" {
		t.Fatalf("support.close %+v", closed)
	}
	e.refusedWith(t, `{"op":"support.reply","id":"`+created.ID+`","by":"tuya.support","text":"one more thing"}`, apperr.CodeTicketClosed)
	e.refusedWith(t, `{"op":"support.show","id":"tnosuchticket"}`, apperr.CodeTicketNotFound)

	// Account: bob cancels his account through the profile function; an
	// operator finds it, and reopens it once bob is identified.
	fntest.Call(t, e.profile, at(t, bobToken, "/fe-ex-api/v4/common/emailValidCode", `{"operationType":17}`), nil)
	var cancelled struct{ CancelledAt int64 }
	fntest.Call(t, e.profile, at(t, bobToken, "/fe-ex-api/user/user_cancellation",
		`{"emailCode":"`+e.box.LastCode(bobEmail)+`","reason":"moving abroad"}`), &cancelled)
	if cancelled.CancelledAt == 0 {
		t.Fatal("bob's account not cancelled")
	}
	if _, env := fntest.Do(t, e.profile, e.login(t, bobEmail)); env.Code == "0" {
		t.Fatal("a cancelled account signed in")
	}
	if funded := e.ok(t, `{"op":"account.review"}`); funded != nil && len(funded.([]any)) != 0 {
		t.Fatalf("account.review lists accounts without money: %+v", funded)
	}
	all := e.ok(t, `{"op":"account.review","all":true}`).([]any)
	if len(all) != 1 || all[0].(map[string]any)["UID"] != bob || all[0].(map[string]any)["Reason"] != "moving abroad" {
		t.Fatalf("account.review all %+v", all)
	}
	e.refusedWith(t, `{"op":"account.reopen","uid":"`+alice+`","by":"saraa.ops"}`, apperr.CodeAccountNotCancelled)
	st := e.ok(t, sample(t, "lambda_admin_account_reopen.json", map[string]string{"uid": bob, "by": "saraa.ops"})).(map[string]any)
	if !strings.HasPrefix(st["ReopenedBy"].(string), "saraa.ops [aws ") || !strings.Contains(st["ReopenNote"].(string), "video call") {
		t.Fatalf("account.reopen %+v", st)
	}
	var login struct{ Token string }
	fntest.Call(t, e.profile, e.login(t, bobEmail), &login)
	if login.Token == "" {
		t.Fatal("bob cannot sign in after the reopening")
	}
	if again := e.ok(t, `{"op":"account.review","all":true}`); again != nil && len(again.([]any)) != 0 {
		t.Fatalf("a reopened account is still listed: %+v", again)
	}

	// Every action is in the function's log with its operator and request id.
	if !strings.Contains(e.logs.String(), `"op":"support.reply","by":"tuya.support [aws 4f1c2d3e-`) {
		t.Errorf("no log line of the support answer in %s", e.logs.String())
	}
	// The records are the table's: no key outside the admin function's key
	// space was touched (fntest.Table's guard checks when the test ends).
	if _, err := e.st.Get(context.Background(), store.Key{PK: "TICKET#" + created.ID, SK: "T"}); err != nil {
		t.Fatal(err)
	}
}

// TestAdminP2P: an order in appeal is listed, shown with its chat, and
// released to the buyer by the recorded payload; a second decision and a
// bad outcome are refused; a merchant application is answered.
func TestAdminP2P(t *testing.T) {
	e := newAdminEnv(t)
	ctx := context.Background()
	seller, _ := e.signUp(t, "p2p.seller@tenger.example")
	buyer, _ := e.signUp(t, "p2p.buyer@tenger.example")
	applicant, _ := e.signUp(t, "p2p.applicant@tenger.example")
	// The test's own setup: a verified merchant with a SELL ad, an order paid and appealed.
	for _, uid := range []string{seller, applicant} {
		if _, err := e.st.Update(ctx, auth.ProfileKey(uid), store.NewUpdate().Set(auth.AttrKYCStatus, int64(2)), store.ItemExists()); err != nil {
			t.Fatal(err)
		}
	}
	svc := p2p.New(p2p.Options{Store: e.st, Ledger: ledger.New(e.st, nil), Profiles: adminProfiles{}, Methods: adminMethods{}, Log: zerolog.Nop()})
	if _, err := ledger.New(e.st, nil).Post(ctx, ledger.Posting{ID: "dep:admin-p2p", Reason: "deposit", Legs: []ledger.Leg{
		ledger.Move(ledger.ChainAccount("TRC20"), ledger.UserAccount(seller, ledger.OTC), "USDT", decimal.NewFromInt(100))}}); err != nil {
		t.Fatal(err)
	}
	for _, uid := range []string{seller, applicant} {
		if _, err := svc.MerchantApply(ctx, uid); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.DecideMerchant(ctx, seller, "desk", true); err != nil {
		t.Fatal(err)
	}
	ad, err := svc.SaveAd(ctx, seller, p2p.AdInput{Side: p2p.Sell, Coin: "USDT", Fiat: "MNT", PriceType: p2p.PriceFixed,
		Price: decimal.NewFromInt(3500), Amount: decimal.NewFromInt(100), MinFiat: decimal.NewFromInt(1000),
		MaxFiat: decimal.NewFromInt(1000000), MethodIDs: []string{"m"}, PayMinutes: 15})
	if err != nil {
		t.Fatal(err)
	}
	o, err := svc.OpenOrder(ctx, buyer, p2p.OrderInput{AdID: ad.ID, Side: p2p.Buy, Volume: decimal.NewFromInt(40)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.MarkPaid(ctx, buyer, o.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Send(ctx, buyer, o.ID, "Paid 140000 MNT from Khan Bank", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Complain(ctx, buyer, o.ID, "paid_not_released", "Paid at 09:00, not released.", nil); err != nil {
		t.Fatal(err)
	}

	if list := e.ok(t, `{"op":"p2p.appeals"}`).([]any); len(list) != 1 || list[0].(map[string]any)["id"] != o.ID {
		t.Fatalf("p2p.appeals %+v", list)
	}
	view := e.ok(t, `{"op":"p2p.show","id":"`+o.ID+`"}`).(map[string]any)
	if chat := view["chat"].([]any); len(chat) != 4 || chat[2].(map[string]any)["content"] != "Paid 140000 MNT from Khan Bank" {
		t.Fatalf("p2p.show chat %+v", view["chat"])
	}
	e.refusedWith(t, `{"op":"p2p.decide","id":"`+o.ID+`","by":"saraa.ops","outcome":"keep"}`, apperr.CodeP2PAppealDecision)
	resp, out := e.invoke(t, sample(t, "lambda_admin_p2p_decide.json", map[string]string{"id": o.ID, "by": "saraa.ops"}))
	res := out["result"].(map[string]any)
	if !resp.OK || res["status"] != p2p.StatusCompleted || !strings.HasPrefix(res["appeal"].(map[string]any)["decidedBy"].(string), "saraa.ops [aws ") {
		t.Fatalf("p2p.decide %+v", out)
	}
	e.refusedWith(t, sample(t, "lambda_admin_p2p_decide.json", map[string]string{"id": o.ID, "by": "saraa.ops"}), apperr.CodeP2PAppealDecision)
	if b, err := ledger.New(e.st, nil).Balance(ctx, ledger.UserAccount(buyer, ledger.OTC), "USDT"); err != nil || b.Available.String() != "40" {
		t.Fatalf("buyer after the release %+v %v", b, err)
	}
	m := e.ok(t, `{"op":"p2p.merchant","uid":"`+applicant+`","by":"saraa.ops","approve":true}`).(map[string]any)
	if m["merchant"] != p2p.MerchantApproved {
		t.Fatalf("p2p.merchant %+v", m)
	}
	e.refusedWith(t, `{"op":"p2p.merchant","uid":"`+applicant+`","by":"saraa.ops","approve":true}`, apperr.CodeP2PMerchantState)
}

type adminProfiles struct{}

func (adminProfiles) P2PProfile(context.Context, string) (p2p.Profile, error) {
	return p2p.Profile{Nick: "n", KYCVerified: true}, nil
}

type adminMethods struct{}

func (adminMethods) Methods(_ context.Context, _ string, ids []string) ([]p2p.Method, error) {
	return []p2p.Method{{ID: ids[0], Kind: "bank", Title: "Khan Bank", Account: "MN120005005123456789"}}, nil
}

// An operator defines a futures competition, lists it and shows it; a
// definition that breaks the rules is refused, and changing one needs a
// name.
func TestAdminCompetitions(t *testing.T) {
	e := newAdminEnv(t)
	start := time.Now().Add(time.Hour).UnixMilli()
	def := fmt.Sprintf(`{"id":"jan-cup","names":{"en_US":"January cup","mn_MN":"1-р сарын тэмцээн"},"start":%d,"end":%d,"coin":"USDT",`+
		`"prizes":[{"from":1,"to":1,"amount":"500"},{"from":2,"to":5,"amount":"100"}],"rules":{"kycLevel":1,"mobile":true,"minBalance":"100","futuresAccount":true}}`,
		start, start+7*86_400_000)
	put := e.ok(t, `{"op":"competition.put","by":"ops-1","competition":`+def+`}`).(map[string]any)
	if put["ID"] != "jan-cup" && put["id"] != "jan-cup" {
		t.Fatalf("put %+v", put)
	}
	list := e.ok(t, `{"op":"competition.list"}`).([]any)
	if len(list) != 1 {
		t.Fatalf("list %+v", list)
	}
	shown := e.ok(t, `{"op":"competition.show","id":"jan-cup"}`).(map[string]any)
	if shown["competition"] == nil || shown["finalAt"] != float64(0) {
		t.Fatalf("show %+v", shown)
	}
	resp, _ := e.invoke(t, `{"op":"competition.put","competition":`+def+`}`)
	if resp.OK {
		t.Fatal("a change without its operator's name was taken")
	}
	bad := strings.Replace(def, `"coin":"USDT"`, `"coin":"DOGE"`, 1)
	if resp, _ := e.invoke(t, `{"op":"competition.put","by":"ops-1","competition":`+bad+`}`); resp.OK || resp.Code == "" {
		t.Fatalf("a definition in an unknown coin: %+v", resp)
	}
}

// An operator puts savings products and lists them: the recorded payload
// (a tiered USDT product), a replacement that closes it, and refusals for
// what breaks the earn service's rules (a period it does not know, a coin
// the catalogue lacks, a second product of one coin, a product's coin
// changed, a misspelt field, no operator's name). The earn function's
// reads see what was put.
func TestAdminSavingsProducts(t *testing.T) {
	e := newAdminEnv(t)
	put := e.ok(t, sample(t, "lambda_admin_savings_put.json", map[string]string{"by": "saraa.ops"})).(map[string]any)
	if put["id"] != "usdt" || put["coin"] != "USDT" || put["period"] != "yearly" || len(put["tiers"].([]any)) != 2 || put["open"] != true ||
		put["names"].(map[string]any)["mn_MN"] != "USDT Уян хатан хадгаламж" {
		t.Fatalf("savings.put %+v", put)
	}
	product := func(fields string) string {
		return `{"op":"savings.put","by":"saraa.ops","product":{` + fields + `}}`
	}
	const usdt = `"id":"usdt","coin":"USDT","names":{"en_US":"USDT Flexible"},"period":"yearly","rate":"5","minAmount":"1","maxPerUser":"0"`
	for what, payload := range map[string]string{
		"an unknown period":       product(strings.Replace(usdt, `"yearly"`, `"hourly"`, 1)),
		"an unknown coin":         product(`"id":"doge","coin":"DOGE","period":"yearly","rate":"5"`),
		"a second USDT product":   product(strings.Replace(usdt, `"id":"usdt"`, `"id":"usdt-2"`, 1)),
		"the coin changed":        product(`"id":"usdt","coin":"BTC","period":"yearly","rate":"1"`),
		"a minimum above the cap": product(strings.Replace(usdt, `"maxPerUser":"0"`, `"maxPerUser":"0.5"`, 1)),
		"a minimum too fine":      product(strings.Replace(usdt, `"minAmount":"1"`, `"minAmount":"0.0000000001"`, 1)),
		"tiers caps falling":      product(`"id":"usdt","coin":"USDT","period":"yearly","tiers":[{"upTo":"100","rate":"5"},{"upTo":"50","rate":"4"},{"rate":"1"}]`),
		"an upper-case id":        product(strings.Replace(usdt, `"id":"usdt"`, `"id":"USDT"`, 1)),
		"a misspelt field":        product(usdt + `,"rat":"5"`),
		"no product":              `{"op":"savings.put","by":"saraa.ops"}`,
		"no operator's name":      `{"op":"savings.put","product":{` + usdt + `}}`,
	} {
		resp, _ := e.invoke(t, payload)
		if resp.OK || resp.Code != apperr.CodeParam || resp.Error == "" {
			t.Errorf("%s: %+v, want refused with %s", what, resp, apperr.CodeParam)
		}
	}
	// A replacement: the same product closed, its rate per day.
	closed := e.ok(t, product(strings.Replace(usdt, `"period":"yearly","rate":"5"`, `"period":"daily","rate":"0.02"`, 1)+`,"open":false,"sort":3`)).(map[string]any)
	if closed["open"] != false || closed["period"] != "daily" || closed["tiers"] != nil {
		t.Fatalf("savings.put replacing %+v", closed)
	}
	e.ok(t, product(`"id":"btc","coin":"BTC","period":"yearly","rate":"1.2","minAmount":"0.0001","open":true,"sort":1`))
	list := e.ok(t, `{"op":"savings.list"}`).([]any)
	if len(list) != 2 || list[0].(map[string]any)["id"] != "btc" || list[1].(map[string]any)["id"] != "usdt" {
		t.Fatalf("savings.list (by sort) %+v", list)
	}
	// What the earn function serves is what the operator put.
	projects, err := e.d.Earn().Projects(context.Background(), "en_US")
	if err != nil || len(projects) != 2 {
		t.Fatalf("the earn service's products %+v %v", projects, err)
	}
	if !strings.Contains(e.logs.String(), `"op":"savings.put","by":"saraa.ops [aws 4f1c2d3e-`) {
		t.Errorf("no log line of the product put in %s", e.logs.String())
	}
}

// brokenStore fails every call, as a table that cannot be reached.
type brokenStore struct{ store.Store }

func (brokenStore) Query(context.Context, store.Query) (store.Page, error) {
	return store.Page{}, errors.New("dynamo: Query: operation error DynamoDB: Query, request send failed")
}

// A table that fails is a failure of the invocation (the errors alarm
// counts it), not a refusal: the product's rules were never reached.
func TestAdminSavingsStoreFailure(t *testing.T) {
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	h := handler(awslambda.NewRuntime("admin", &bytes.Buffer{}), &ops{earn: earn.New(earn.Options{Store: failingStore{brokenStore{}}, Coins: cc})})
	payload := sample(t, "lambda_admin_savings_put.json", map[string]string{"by": "saraa.ops"})
	if resp, err := h(context.Background(), json.RawMessage(payload)); err == nil {
		t.Fatalf("a failing table answered %+v", resp)
	}
	if _, err := h(context.Background(), json.RawMessage(`{"op":"savings.list"}`)); err == nil {
		t.Fatal("savings.list on a failing table did not fail")
	}
}

// An operator puts and lists staking products and launchpad sales as
// `tenger earn staking|launchpad set` does on a data directory: what
// breaks the earn service's rules is refused (a term of 0 days, a term
// changed, a sale without a price); a sale's terms stay as they were once
// its subscription started, its names may change.
func TestAdminStakingAndLaunchpad(t *testing.T) {
	e := newAdminEnv(t)
	js := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	put := func(op string, product any) string {
		return `{"op":"` + op + `","by":"saraa.ops","product":` + js(product) + `}`
	}
	stake := earn.DevStakingProducts()[0]
	got := e.ok(t, put("staking.put", stake)).(map[string]any)
	if got["id"] != stake.ID || got["termDays"] != float64(stake.TermDays) {
		t.Fatalf("staking.put %+v", got)
	}
	bad := stake
	bad.TermDays = 0
	e.refusedWith(t, put("staking.put", bad), apperr.CodeParam)
	bad = stake
	bad.TermDays++
	e.refusedWith(t, put("staking.put", bad), apperr.CodeParam)
	if list := e.ok(t, `{"op":"staking.list"}`).([]any); len(list) != 1 {
		t.Fatalf("staking.list %+v", list)
	}

	sale := earn.DevLaunchProjects(time.Now())[0]
	e.ok(t, put("launchpad.put", sale))
	noPrice := sale
	noPrice.ID, noPrice.Price = "free-lunch", decimal.Zero
	e.refusedWith(t, put("launchpad.put", noPrice), apperr.CodeParam)
	changed := sale
	changed.Price = decimal.NewFromInt(1)
	changed.Names = map[string]string{earn.LangEN: "TON sale, renamed"}
	res := e.ok(t, put("launchpad.put", changed)).(map[string]any)
	if res["price"] != "2.2" || res["names"].(map[string]any)["en_US"] != "TON sale, renamed" {
		t.Fatalf("launchpad.put after the start: %+v", res)
	}
	if list := e.ok(t, `{"op":"launchpad.list"}`).([]any); len(list) != 1 {
		t.Fatalf("launchpad.list %+v", list)
	}
	e.refusedWith(t, `{"op":"launchpad.put","product":`+js(sale)+`}`, apperr.CodeParam) // no operator's name
}

// An operator reads the loans' settings (the defaults until put), puts
// new ones, and is refused settings whose LTVs do not rise.
func TestAdminLoanSettings(t *testing.T) {
	e := newAdminEnv(t)
	shown := e.ok(t, `{"op":"loans.show"}`).(map[string]any)
	if shown["initialLTV"] != "0.65" {
		t.Fatalf("loans.show %+v", shown)
	}
	cfg := earn.DefaultLoanConfig()
	cfg.InitialLTV = decimal.RequireFromString("0.6")
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.ok(t, `{"op":"loans.put","by":"saraa.ops","product":`+string(b)+`}`).(map[string]any); got["initialLTV"] != "0.6" {
		t.Fatalf("loans.put %+v", got)
	}
	cfg.MarginCallLTV = decimal.RequireFromString("0.5")
	b, _ = json.Marshal(cfg)
	e.refusedWith(t, `{"op":"loans.put","by":"saraa.ops","product":`+string(b)+`}`, apperr.CodeParam)
	if shown := e.ok(t, `{"op":"loans.show"}`).(map[string]any); shown["initialLTV"] != "0.6" {
		t.Fatalf("loans.show after the put %+v", shown)
	}
}
