package competition

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// RuleCheck is one rule of joining: whether the competition asks it, and
// whether the user meets it (a rule not asked is met).
type RuleCheck struct {
	Required bool `json:"required"`
	Met      bool `json:"met"`
}

// FundsCheck is the rule of the minimum futures margin balance.
type FundsCheck struct {
	RuleCheck
	Min     string `json:"min" doc:"the least futures margin balance, in coin"`
	Balance string `json:"balance" doc:"the user's futures margin balance now (wallet balance + unrealized PnL at mark)"`
	Coin    string `json:"coin"`
}

// Condition is /get_user_condition: each rule of joining met or not.
type Condition struct {
	CompetitionID  string     `json:"competitionId"`
	State          string     `json:"state" doc:"upcoming, running, ended or settled"`
	KYC            RuleCheck  `json:"kyc" doc:"a verified identity"`
	Mobile         RuleCheck  `json:"mobile" doc:"a bound mobile number"`
	Funds          FundsCheck `json:"funds"`
	FuturesAccount RuleCheck  `json:"futuresAccount" doc:"an opened futures account"`
	Joined         bool       `json:"joined"`
	// CanJoin: running, not joined, every rule met.
	CanJoin bool `json:"canJoin" doc:"running, not joined yet, and every rule met"`
}

// firstUnmet is the error of the first rule not met (nil: all met).
func (c Condition) firstUnmet() error {
	switch {
	case !c.KYC.Met:
		return apperr.New(apperr.CodeCompetitionKYC)
	case !c.Mobile.Met:
		return apperr.New(apperr.CodeCompetitionMobile)
	case !c.FuturesAccount.Met:
		return apperr.New(apperr.CodeCompetitionFuturesAccount)
	case !c.Funds.Met:
		return apperr.New(apperr.CodeCompetitionFunds, c.Funds.Min, c.Funds.Coin)
	}
	return nil
}

// participant reads a participant (nil: not joined).
func (s *Service) participant(ctx context.Context, id, uid string) (store.Item, error) {
	it, err := s.o.Store.Get(ctx, participantKey(id, uid))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, internal(err)
	}
	return it, nil
}

// Condition answers each rule of joining for the user, with the user's
// futures margin balance.
func (s *Service) Condition(ctx context.Context, id, uid string) (Condition, error) {
	if uid == "" {
		return Condition{}, apperr.New(apperr.CodeNotSignedIn)
	}
	c, err := s.Get(ctx, id)
	if err != nil {
		return Condition{}, err
	}
	p, err := s.participant(ctx, c.ID, uid)
	if err != nil {
		return Condition{}, err
	}
	cond, _, _, err := s.check(ctx, c, uid)
	if err != nil {
		return Condition{}, err
	}
	cond.Joined = p != nil
	cond.CanJoin = cond.CanJoin && !cond.Joined
	return cond, nil
}

// check reads what the rules need of the user.
func (s *Service) check(ctx context.Context, c Competition, uid string) (Condition, User, decimal.Decimal, error) {
	u, err := s.o.Users.CompetitionUser(ctx, uid)
	if err != nil {
		return Condition{}, User{}, decimal.Zero, passOn(err)
	}
	opened, err := s.o.Futures.Opened(ctx, uid)
	if err != nil {
		return Condition{}, User{}, decimal.Zero, passOn(err)
	}
	bal, err := s.o.Futures.MarginBalance(ctx, uid, c.Coin)
	if err != nil {
		return Condition{}, User{}, decimal.Zero, passOn(err)
	}
	r := c.Rules
	cond := Condition{CompetitionID: c.ID, State: c.State(s.o.Now()),
		KYC:            RuleCheck{Required: r.KYCLevel > 0, Met: u.KYCLevel >= r.KYCLevel},
		Mobile:         RuleCheck{Required: r.Mobile, Met: !r.Mobile || u.Mobile},
		FuturesAccount: RuleCheck{Required: r.FuturesAccount, Met: !r.FuturesAccount || opened},
		Funds: FundsCheck{RuleCheck: RuleCheck{Required: r.MinBalance.IsPositive(), Met: bal.GreaterThanOrEqual(r.MinBalance)},
			Min: r.MinBalance.String(), Balance: bal.String(), Coin: c.Coin},
	}
	cond.CanJoin = cond.State == StateRunning && cond.firstUnmet() == nil
	return cond, u, bal, nil
}

// Join records the user in a running competition when every rule holds,
// with the initial equity (the futures margin balance now). Joining again
// is a no-op answering the first join.
func (s *Service) Join(ctx context.Context, id, uid string) (UserRank, error) {
	if uid == "" {
		return UserRank{}, apperr.New(apperr.CodeNotSignedIn)
	}
	c, err := s.Get(ctx, id)
	if err != nil {
		return UserRank{}, err
	}
	if p, err := s.participant(ctx, c.ID, uid); err != nil {
		return UserRank{}, err
	} else if p != nil {
		return s.userRank(c, p), nil
	}
	now := s.o.Now()
	switch c.State(now) {
	case StateUpcoming:
		return UserRank{}, apperr.New(apperr.CodeCompetitionNotStarted, time.UnixMilli(c.Start).UTC().Format("2006-01-02 15:04"))
	case StateEnded, StateSettled:
		return UserRank{}, apperr.New(apperr.CodeCompetitionEnded)
	}
	cond, u, bal, err := s.check(ctx, c, uid)
	if err != nil {
		return UserRank{}, err
	}
	if err := cond.firstUnmet(); err != nil {
		return UserRank{}, err
	}
	k := participantKey(c.ID, uid)
	it := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "uid": uid, "nick": nickOf(u.Nick, uid), "initial": bal.String(),
		"joinedAt": now.UnixMilli()}
	// The final marker closes the competition to joins as to rankings.
	err = s.o.Store.Transact(ctx, []store.Op{
		store.PutOp(it, store.ItemNotExists()).Named("participant"),
		store.CheckOp(finalKey(c.ID), store.ItemNotExists()).Named("final"),
	})
	switch {
	case err == nil:
		// The count the pages show; each refresh sets it to what it read,
		// so a crash before this costs a minute's undercount at most.
		if _, err := s.o.Store.Update(ctx, compKey(c.ID), store.NewUpdate().AddInt("participants", 1), store.ItemExists()); err != nil {
			s.o.Log.Warn().Err(err).Str("competition", c.ID).Msg("competition: participants count not raised")
		}
		return s.userRank(c, it), nil
	case errors.Is(err, store.ErrConditionFailed):
		p, gerr := s.participant(ctx, c.ID, uid)
		if gerr != nil {
			return UserRank{}, gerr
		}
		if p != nil { // joined meanwhile by a concurrent call
			return s.userRank(c, p), nil
		}
		return UserRank{}, apperr.New(apperr.CodeCompetitionEnded)
	}
	return UserRank{}, internal(err)
}

// nickOf is how a user shows in the rankings before masking: the
// nickname, or for one without, a name made of the id's last digits
// (never an e-mail or phone).
func nickOf(nick, uid string) string {
	if n := strings.TrimSpace(nick); n != "" {
		return n
	}
	return "User-" + uid[max(0, len(uid)-4):]
}

// Mask hides most of a nickname: its first and last characters around
// "***" ("alice" → "a***e"); one or two characters keep only the first.
func Mask(nick string) string {
	r := []rune(strings.TrimSpace(nick))
	if !utf8.ValidString(nick) || len(r) == 0 {
		return "***"
	}
	if len(r) <= 2 {
		return string(r[0]) + "***"
	}
	return string(r[0]) + "***" + string(r[len(r)-1])
}
