package p2p

import (
	"context"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
)

// Quote is express's answer (otc_channel_check): the best ad that fills
// the amount now, and the order it would be.
type Quote struct {
	AdID     string          `json:"advertId"`
	Side     string          `json:"side" doc:"the caller's"`
	Coin     string          `json:"coinSymbol"`
	Fiat     string          `json:"paySymbol"`
	Price    decimal.Decimal `json:"price"`
	Volume   decimal.Decimal `json:"volume"`
	Total    decimal.Decimal `json:"totalPrice"`
	PayMin   int             `json:"limitTime"`
	Payments []string        `json:"payments" doc:"payment kinds the ad accepts"`
	Merchant *Stats          `json:"merchant"`
}

// QuoteInput is what express asks for: a fiat amount or a coin volume.
type QuoteInput struct {
	Side   string
	Coin   string
	Fiat   string
	Amount decimal.Decimal
	Volume decimal.Decimal
}

// Express finds the best ad for a one-step trade: the best price among the
// open ads that can take the whole amount, leaving out the caller's own
// ads and, for an unverified caller, those that trade only with verified
// users. The order is then opened on the quoted ad (OpenOrder), which
// checks everything again.
func (s *Service) Express(ctx context.Context, caller string, in QuoteInput) (Quote, error) {
	in.Side, in.Coin = strings.ToUpper(in.Side), strings.ToUpper(in.Coin)
	if in.Fiat == "" {
		in.Fiat = "MNT"
	}
	scale, ok := s.o.Coins[in.Coin]
	if !ok {
		return Quote{}, adField("coin")
	}
	if in.Amount.IsPositive() == in.Volume.IsPositive() {
		return Quote{}, apperr.Param("amount or volume, one of them")
	}
	if in.Volume.IsPositive() && in.Volume.Exponent() < -scale || in.Amount.Exponent() < -FiatScale {
		return Quote{}, apperr.Param("amount or volume: too many decimals")
	}
	verified := false
	if caller != "" && s.o.Profiles != nil {
		if p, err := s.o.Profiles.P2PProfile(ctx, caller); err == nil {
			verified = p.KYCVerified
		}
	}
	ads, _, err := s.Search(ctx, caller, SearchFilter{Side: in.Side, Coin: in.Coin, Fiat: in.Fiat, Page: 1, PageSize: 50})
	if err != nil {
		return Quote{}, err
	}
	for _, a := range ads { // best price first
		if a.UID == caller || a.KYC && !verified {
			continue
		}
		vol := in.Volume
		if in.Amount.IsPositive() {
			vol = in.Amount.Div(a.Price).RoundDown(scale)
		}
		total := vol.Mul(a.Price).Round(FiatScale)
		if !vol.IsPositive() || vol.GreaterThan(a.Remaining) || total.LessThan(a.MinFiat) || total.GreaterThan(a.MaxFiat) {
			continue
		}
		q := Quote{AdID: a.ID, Side: in.Side, Coin: a.Coin, Fiat: a.Fiat, Price: a.Price, Volume: vol, Total: total,
			PayMin: a.PayMin, Payments: []string{}, Merchant: a.Merchant}
		for _, m := range a.Methods {
			if !slices.Contains(q.Payments, m.Kind) {
				q.Payments = append(q.Payments, m.Kind)
			}
		}
		return q, nil
	}
	return Quote{}, apperr.New(apperr.CodeP2PNoQuote)
}

// Available is the caller's OTC balance of a coin that can be sold now
// (get_quick_sell_balance).
func (s *Service) Available(ctx context.Context, uid, coin string) (decimal.Decimal, error) {
	coin = strings.ToUpper(coin)
	if _, ok := s.o.Coins[coin]; !ok {
		return decimal.Zero, adField("coin")
	}
	b, err := s.o.Ledger.Balance(ctx, otc(uid), coin)
	if err != nil {
		return decimal.Zero, internal(err)
	}
	return b.Available, nil
}
