package p2p

import (
	"context"
	"errors"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// Merchant states of a user.
const (
	MerchantNone     = "none"
	MerchantPending  = "pending"
	MerchantApproved = "approved"
)

// Stats is a user's P2P record (person_home_page): the merchant state and
// what the counterparties judge a trader by.
type Stats struct {
	UID      string `json:"uid"`
	Nick     string `json:"nickName"`
	Merchant string `json:"merchant" doc:"none, pending or approved"`
	Verified bool   `json:"kycVerified"`
	// Trades are completed orders, on either side.
	Trades    int64 `json:"completeOrders"`
	Buys      int64 `json:"buyOrders"`
	Sells     int64 `json:"sellOrders"`
	Cancelled int64 `json:"cancelOrders" doc:"orders cancelled as the buyer (by the buyer or for not paying in time)"`
	// CompletionRate is trades ÷ (trades + cancelled), as a percentage with
	// two decimals; empty before the first order ends.
	CompletionRate string `json:"completionRate"`
	AvgReleaseSec  int64  `json:"avgReleaseTime" doc:"seconds from the buyer's payment to the release, as seller"`
	AvgPaySec      int64  `json:"avgPayTime" doc:"seconds from the order to the payment, as buyer"`
	FirstTrade     int64  `json:"firstTradeTime" doc:"Unix ms of the first completed order, 0 when none"`
	OpenAds        int64  `json:"openAds"`

	open int64
}

// profile reads the stored P2P profile (zero values when none).
func (s *Service) profile(ctx context.Context, uid string) (Stats, error) {
	it, err := s.o.Store.Get(ctx, profileKey(uid))
	if errors.Is(err, store.ErrNotFound) {
		return Stats{UID: uid, Merchant: MerchantNone}, nil
	}
	if err != nil {
		return Stats{}, internal(err)
	}
	st := Stats{UID: uid, Merchant: it.Str("merchant"), Trades: it.Int("trades"), Buys: it.Int("buys"), Sells: it.Int("sells"),
		Cancelled: it.Int("cancelled"), FirstTrade: it.Int("first"), OpenAds: it.Int("ads"), open: it.Int("open")}
	if st.Merchant == "" {
		st.Merchant = MerchantNone
	}
	if n := it.Int("relN"); n > 0 {
		st.AvgReleaseSec = it.Int("relMs") / n / 1000
	}
	if n := it.Int("payN"); n > 0 {
		st.AvgPaySec = it.Int("payMs") / n / 1000
	}
	if d := st.Trades + st.Cancelled; d > 0 {
		st.CompletionRate = decimal.NewFromInt(st.Trades * 100).Div(decimal.NewFromInt(d)).RoundDown(2).StringFixed(2)
	}
	return st, nil
}

// Stats is a user's record with their nickname and verification.
func (s *Service) Stats(ctx context.Context, uid string) (Stats, error) {
	st, err := s.profile(ctx, uid)
	if err != nil {
		return Stats{}, err
	}
	if s.o.Profiles != nil {
		p, err := s.o.Profiles.P2PProfile(ctx, uid)
		if err != nil {
			return Stats{}, internal(err)
		}
		st.Nick, st.Verified = p.Nick, p.KYCVerified
	}
	return st, nil
}

// MerchantApply is company_apply: a verified user asks to become a
// merchant; an operator decides (ApproveMerchant).
func (s *Service) MerchantApply(ctx context.Context, uid string) (Stats, error) {
	p, err := s.o.Profiles.P2PProfile(ctx, uid)
	if err != nil {
		return Stats{}, internal(err)
	}
	if !p.KYCVerified {
		return Stats{}, apperr.New(apperr.CodeP2PMerchantState, "verify your identity first")
	}
	upd := store.NewUpdate().Set("merchant", MerchantPending).Set("mApplied", ms(s.o.Now()))
	_, err = s.o.Store.Update(ctx, profileKey(uid), upd,
		store.Or(store.NotExists("merchant"), store.Eq("merchant", MerchantNone)))
	if errors.Is(err, store.ErrConditionFailed) {
		cur, perr := s.profile(ctx, uid)
		if perr != nil {
			return Stats{}, perr
		}
		return Stats{}, apperr.New(apperr.CodeP2PMerchantState, "already "+cur.Merchant)
	}
	if err != nil {
		return Stats{}, internal(err)
	}
	return s.Stats(ctx, uid)
}

// DecideMerchant is the operator's answer to an application: approved
// makes the user a merchant; refused returns them to none.
func (s *Service) DecideMerchant(ctx context.Context, uid, by string, approve bool) error {
	state := MerchantNone
	if approve {
		state = MerchantApproved
	}
	upd := store.NewUpdate().Set("merchant", state).Set("mDecided", ms(s.o.Now())).Set("mDecidedBy", clip(by, 128))
	_, err := s.o.Store.Update(ctx, profileKey(uid), upd, store.Eq("merchant", MerchantPending))
	if errors.Is(err, store.ErrConditionFailed) {
		return apperr.New(apperr.CodeP2PMerchantState, "no pending application")
	}
	return internal(err)
}

// MerchantRelease is company_release: a merchant with no open ad goes back
// to a regular trader.
func (s *Service) MerchantRelease(ctx context.Context, uid string) error {
	_, err := s.o.Store.Update(ctx, profileKey(uid), store.NewUpdate().Set("merchant", MerchantNone),
		store.And(store.Eq("merchant", MerchantApproved), store.Or(store.NotExists("ads"), store.Eq("ads", int64(0)))))
	if errors.Is(err, store.ErrConditionFailed) {
		cur, perr := s.profile(ctx, uid)
		if perr != nil {
			return perr
		}
		if cur.Merchant != MerchantApproved {
			return apperr.New(apperr.CodeP2PMerchantState, "not a merchant")
		}
		return apperr.New(apperr.CodeP2PMerchantState, "close your ads first")
	}
	return internal(err)
}
