package httpapi

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/competition"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
)

// compFakes stand for the identity, futures and wallet services the
// competition reads (the service's own tests cover them with the store;
// here the routes are under test).
type compFakes struct {
	mu      sync.Mutex
	users   map[string]competition.User
	opened  map[string]bool
	balance map[string]decimal.Decimal
}

func (f *compFakes) CompetitionUser(_ context.Context, uid string) (competition.User, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.users[uid], nil
}

func (f *compFakes) MarginBalance(_ context.Context, uid, _ string) (decimal.Decimal, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.balance[uid], nil
}

func (f *compFakes) Opened(_ context.Context, uid string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.opened[uid], nil
}

func (f *compFakes) FuturesTransfers(context.Context, string, string, int64, int64) ([]competition.Transfer, error) {
	return nil, nil
}

// The competition routes: nothing current at first; a competition's
// detail, ranks and top are public, the caller's condition, joining and
// rank private; each join rule answers its code; the ranking follows the
// refresh; after the end the refresher pays the prizes into spot.
func TestCompetitionRoutes(t *testing.T) {
	p := newProfEnv(t)
	f := &compFakes{users: map[string]competition.User{}, opened: map[string]bool{}, balance: map[string]decimal.Decimal{}}
	led := ledger.New(p.st, p.clock.Now)
	svc := competition.New(competition.Options{Store: p.st, Users: f, Futures: f, Transfers: f,
		Funds: spotfunds.Ledger{Led: led, Store: p.st}, Now: p.clock.Now, Log: zerolog.Nop()})
	mux := http.NewServeMux()
	Mount(mux, p.h.(*Router), NewCompetitionRouter(svc, Options{Log: zerolog.Nop(), Now: p.clock.Now, Sessions: AuthSessions(p.svc)}))
	p.h = mux
	const co = "/fe-co-api"

	if _, env := p.post(t, co+"/common/get_current_competition", map[string]any{}, authMode{}); env.Code != "0" || env.Data != nil {
		t.Fatalf("no competition: %+v", env)
	}
	start := p.clock.Now().Add(time.Hour)
	end := start.Add(7 * 24 * time.Hour)
	if _, _, err := svc.Put(context.Background(), competition.Definition{ID: "cup1",
		Names: map[string]string{"en_US": "Futures cup", "mn_MN": "Фьючерсийн тэмцээн"}, Start: start.UnixMilli(), End: end.UnixMilli(),
		Coin: "USDT", Prizes: []competition.Prize{{From: 1, To: 1, Amount: decimal.NewFromInt(1000)}, {From: 2, To: 2, Amount: decimal.NewFromInt(500)}},
		Rules: competition.DefaultRules(decimal.NewFromInt(100))}); err != nil {
		t.Fatal(err)
	}

	alice := p.signUp(t, "alice@ex.mn", "Passw0rd!x")
	aliceTok := hdr(p.signIn(t, "alice@ex.mn", "Passw0rd!x"))
	bob := p.signUp(t, "bob@ex.mn", "Passw0rd!x")
	bobTok := hdr(p.signIn(t, "bob@ex.mn", "Passw0rd!x"))
	f.users[alice] = competition.User{Nick: "alice", KYCLevel: 1, Mobile: true}
	f.opened[alice], f.balance[alice] = true, decimal.NewFromInt(1000)
	f.users[bob] = competition.User{Nick: "bobby"}
	f.balance[bob] = decimal.NewFromInt(50)

	cur := p.ok(t, co+"/common/get_current_competition", map[string]any{}, authMode{})
	if cur["competitionId"] != "cup1" || cur["state"] != "upcoming" || cur["name"] != "Futures cup" || cur["prizePool"] != "1500" ||
		cur["signedIn"] != false || cur["joined"] != false {
		t.Fatalf("current %+v", cur)
	}
	p.fails(t, co+"/common/competition_detail", map[string]any{"competitionId": "nope"}, authMode{}, apperr.CodeCompetitionUnknown)
	p.fails(t, co+"/common/competition_detail", map[string]any{}, authMode{}, apperr.CodeParam)
	p.fails(t, co+"/get_user_condition", map[string]any{"competitionId": "cup1"}, authMode{}, apperr.CodeNotSignedIn)
	p.fails(t, co+"/join_competition", map[string]any{"competitionId": "cup1"}, authMode{}, apperr.CodeNotSignedIn)
	p.fails(t, co+"/user_rank", map[string]any{"competitionId": "cup1"}, authMode{}, apperr.CodeNotSignedIn)
	p.fails(t, co+"/join_competition", map[string]any{"competitionId": "cup1"}, aliceTok, apperr.CodeCompetitionNotStarted)

	p.clock.Add(2 * time.Hour)
	cond := p.ok(t, co+"/get_user_condition", map[string]any{"competitionId": "cup1"}, bobTok)
	funds := cond["funds"].(map[string]any)
	if cond["kyc"].(map[string]any)["met"] != false || cond["mobile"].(map[string]any)["met"] != false ||
		cond["futuresAccount"].(map[string]any)["met"] != false || funds["met"] != false || funds["min"] != "100" ||
		funds["balance"] != "50" || cond["joined"] != false || cond["canJoin"] != false {
		t.Fatalf("bob's condition %+v", cond)
	}
	p.fails(t, co+"/join_competition", map[string]any{"competitionId": "cup1"}, bobTok, apperr.CodeCompetitionKYC)
	f.users[bob] = competition.User{Nick: "bobby", KYCLevel: 1}
	p.fails(t, co+"/join_competition", map[string]any{"competitionId": "cup1"}, bobTok, apperr.CodeCompetitionMobile)
	f.users[bob] = competition.User{Nick: "bobby", KYCLevel: 1, Mobile: true}
	p.fails(t, co+"/join_competition", map[string]any{"competitionId": "cup1"}, bobTok, apperr.CodeCompetitionFuturesAccount)
	f.opened[bob] = true
	p.fails(t, co+"/join_competition", map[string]any{"competitionId": "cup1"}, bobTok, apperr.CodeCompetitionFunds)
	f.balance[bob] = decimal.NewFromInt(200)

	j := p.ok(t, co+"/join_competition", map[string]any{"competitionId": "cup1"}, aliceTok)
	if j["joined"] != true || j["initialEquity"] != "1000.00" || j["rank"] != float64(0) {
		t.Fatalf("alice joined %+v", j)
	}
	// Joining again is a no-op.
	f.balance[alice] = decimal.NewFromInt(1)
	if again := p.ok(t, co+"/join_competition", map[string]any{"competitionId": "cup1"}, aliceTok); again["initialEquity"] != "1000.00" {
		t.Fatalf("joined again %+v", again)
	}
	f.balance[alice] = decimal.NewFromInt(1000)
	p.ok(t, co+"/join_competition", map[string]any{"competitionId": "cup1"}, bobTok)
	det := p.ok(t, co+"/common/competition_detail", map[string]any{"competitionId": "cup1"}, aliceTok)
	if det["state"] != "running" || det["participants"] != float64(2) || det["signedIn"] != true || det["joined"] != true {
		t.Fatalf("detail %+v", det)
	}

	// Alice makes 10 %, bob 50 %.
	f.balance[alice], f.balance[bob] = decimal.NewFromInt(1100), decimal.NewFromInt(300)
	if err := svc.Refresh(context.Background(), p.clock.Now()); err != nil {
		t.Fatal(err)
	}
	top := p.okList(t, co+"/common/competition_top", map[string]any{"competitionId": "cup1", "limit": 1})
	if len(top) != 1 || top[0].(map[string]any)["nickName"] != "b***y" || top[0].(map[string]any)["roi"] != "50.00" ||
		top[0].(map[string]any)["profit"] != "100.00" || top[0].(map[string]any)["prize"] != "1000" {
		t.Fatalf("top %+v", top)
	}
	p.fails(t, co+"/common/competition_top", map[string]any{"competitionId": "cup1", "limit": 101}, authMode{}, apperr.CodeParam)
	page := p.ok(t, co+"/common/competition_rank_web", map[string]any{"competitionId": "cup1", "page": 2, "pageSize": 1}, authMode{})
	list := page["list"].([]any)
	if page["count"] != float64(2) || len(list) != 1 || list[0].(map[string]any)["nickName"] != "a***e" || list[0].(map[string]any)["rank"] != float64(2) {
		t.Fatalf("rank page %+v", page)
	}
	p.fails(t, co+"/common/competition_rank_web", map[string]any{"competitionId": "cup1", "pageSize": 500}, authMode{}, apperr.CodeParam)
	ur := p.ok(t, co+"/user_rank", map[string]any{"competitionId": "cup1"}, aliceTok)
	if ur["rank"] != float64(2) || ur["roi"] != "10.00" || ur["profit"] != "100.00" || ur["equity"] != "1100.00" ||
		ur["initialEquity"] != "1000.00" || ur["prize"] != "500" || ur["prizePaid"] != false {
		t.Fatalf("alice's rank %+v", ur)
	}

	// After the end the refresher fixes the ranking and pays the prizes.
	p.clock.Add(8 * 24 * time.Hour)
	if err := svc.Refresh(context.Background(), p.clock.Now()); err != nil {
		t.Fatal(err)
	}
	// (A session lasts 7 days: sign in again.)
	aliceTok, bobTok = hdr(p.signIn(t, "alice@ex.mn", "Passw0rd!x")), hdr(p.signIn(t, "bob@ex.mn", "Passw0rd!x"))
	if j := p.ok(t, co+"/join_competition", map[string]any{"competitionId": "cup1"}, aliceTok); j["rank"] != float64(2) {
		t.Fatalf("a participant joining again after the end %+v", j)
	}
	carol := p.signUp(t, "carol@ex.mn", "Passw0rd!x")
	f.users[carol] = competition.User{Nick: "carol", KYCLevel: 1, Mobile: true}
	f.opened[carol], f.balance[carol] = true, decimal.NewFromInt(1000)
	p.fails(t, co+"/join_competition", map[string]any{"competitionId": "cup1"}, hdr(p.signIn(t, "carol@ex.mn", "Passw0rd!x")),
		apperr.CodeCompetitionEnded)
	for uid, want := range map[string]string{alice: "500", bob: "1000"} {
		b, err := led.Balance(context.Background(), ledger.UserAccount(uid, ledger.Spot), "USDT")
		if err != nil || !b.Available.Equal(decimal.RequireFromString(want)) {
			t.Fatalf("%s spot %+v %v, want %s", uid, b, err, want)
		}
	}
	ur = p.ok(t, co+"/user_rank", map[string]any{"competitionId": "cup1"}, bobTok)
	if ur["rank"] != float64(1) || ur["prize"] != "1000" || ur["prizePaid"] != true {
		t.Fatalf("bob's rank %+v", ur)
	}
	if det := p.ok(t, co+"/common/competition_detail", map[string]any{"competitionId": "cup1"}, authMode{}); det["state"] != "settled" || det["settledAt"] == float64(0) {
		t.Fatalf("settled detail %+v", det)
	}
	// The last ended competition stays current while none runs or is to come.
	if cur := p.ok(t, co+"/common/get_current_competition", map[string]any{}, bobTok); cur["competitionId"] != "cup1" ||
		cur["state"] != "settled" || cur["joined"] != true {
		t.Fatalf("current after the end %+v", cur)
	}
}
