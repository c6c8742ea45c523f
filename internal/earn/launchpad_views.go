package earn

import (
	"context"
	"errors"
	"math/big"

	"tenger/internal/store"
)

// LaunchView is a sale as the launchpad pages show it.
type LaunchView struct {
	ID             string `json:"id"`
	Name           string `json:"name"`
	Description    string `json:"description"`
	Token          string `json:"token"`
	TokenLogo      string `json:"tokenLogo"`
	CommitCoin     string `json:"commitCoin"`
	Price          string `json:"price" doc:"one token in the commitment coin"`
	TokensOffered  string `json:"tokensOffered"`
	MaxPerUser     string `json:"maxPerUser" doc:"most tokens one user gets; empty: no cap"`
	MinCommit      string `json:"minCommit"`
	SubscribeStart int64  `json:"subscribeStart" doc:"Unix ms"`
	SubscribeEnd   int64  `json:"subscribeEnd" doc:"Unix ms"`
	DistributeAt   int64  `json:"distributeAt" doc:"Unix ms"`
	Phase          string `json:"phase" doc:"upcoming, subscription, calculation, distribution or ended"`
	TotalCommitted string `json:"totalCommitted"`
	Participants   int64  `json:"participants" doc:"commitments made"`
	// Oversubscribed is total committed ÷ the offer's value (percent).
	Oversubscribed string `json:"subscribedPercent"`
	TokPrecision   int32  `json:"tokenPrecision"`
	ComPrecision   int32  `json:"commitPrecision"`
	// Mine is the caller's part (detail, signed in).
	Mine *LaunchReport `json:"mine,omitempty"`
}

// LaunchReport shows one user how the allocation was worked out.
type LaunchReport struct {
	Committed string `json:"committed"`
	// Share is committed ÷ total × offered before any cap (8 decimals
	// past the token's unit, rounded down), as the first round gives.
	Share string `json:"proRataShare"`
	// Cap is the most the user could get: the cap per user, and what the
	// commitment pays for.
	Cap string `json:"limit"`
	// Allocated tokens, their cost (price × tokens rounded up) and what
	// went back; empty until the sale is allocated.
	Allocated string `json:"allocated"`
	Cost      string `json:"cost"`
	Returned  string `json:"returned"`
	// Formula says it in words for people.
	Formula string `json:"formula"`
}

func (s *Service) launchView(ctx context.Context, l launch, lang string) (LaunchView, store.Item, error) {
	st, err := s.st.Get(ctx, launchStateKey(l.ID))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return LaunchView{}, nil, err
	}
	total := st.Int("committed")
	v := LaunchView{ID: l.ID, Name: l.Name(lang), Description: l.Description(lang), Token: l.Token, TokenLogo: l.tokIcon, CommitCoin: l.CommitCoin,
		Price: l.Price.String(), TokensOffered: fixed(l.sale.Offered, l.tokPrec), MinCommit: fixed(l.least, l.comPrec),
		SubscribeStart: l.SubscribeStart, SubscribeEnd: l.SubscribeEnd, DistributeAt: l.DistributeAt, Phase: l.phase(s.now(), st.Has("ended")),
		TotalCommitted: fixed(total, l.comPrec), Participants: st.Int("commits"), TokPrecision: l.tokPrec, ComPrecision: l.comPrec}
	if l.sale.Cap > 0 {
		v.MaxPerUser = fixed(l.sale.Cap, l.tokPrec)
	}
	// The offer's value in commitment units: offered × num ÷ den.
	value := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(l.sale.Offered), big.NewInt(l.sale.PriceNum)), big.NewInt(l.sale.PriceDen))
	pct := new(big.Rat).Quo(new(big.Rat).Mul(big.NewRat(total, 1), big.NewRat(100, 1)), value)
	v.Oversubscribed = pct.FloatString(2)
	return v, st, nil
}

// LaunchList lists the sales (newcoin_project_listV2).
func (s *Service) LaunchList(ctx context.Context, lang string) ([]LaunchView, error) {
	all, err := s.LaunchProjects(ctx)
	if err != nil {
		return nil, internal(err)
	}
	out := make([]LaunchView, 0, len(all))
	for _, p := range all {
		l, err := s.launchOf(p)
		if err != nil {
			continue
		}
		v, _, err := s.launchView(ctx, l, lang)
		if err != nil {
			return nil, internal(err)
		}
		out = append(out, v)
	}
	return out, nil
}

// LaunchDetail is one sale (newcoin_project_detailV2), with the caller's
// report when signed in.
func (s *Service) LaunchDetail(ctx context.Context, uid, id, lang string) (LaunchView, error) {
	l, err := s.loadLaunch(ctx, id)
	if err != nil {
		return LaunchView{}, err
	}
	v, st, err := s.launchView(ctx, l, lang)
	if err != nil {
		return LaunchView{}, internal(err)
	}
	if uid == "" {
		return v, nil
	}
	c, err := s.st.Get(ctx, commitKey(l.ID, uid))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return LaunchView{}, internal(err)
	}
	mine := c.Int("units")
	total := st.Int("committed")
	r := &LaunchReport{Committed: fixed(mine, l.comPrec)}
	limit := new(big.Int).Quo(new(big.Int).Mul(big.NewInt(mine), big.NewInt(l.sale.PriceDen)), big.NewInt(l.sale.PriceNum)).Int64()
	if l.sale.Cap > 0 && l.sale.Cap < limit {
		limit = l.sale.Cap
	}
	r.Cap = fixed(limit, l.tokPrec)
	if total > 0 {
		share := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(mine), big.NewInt(l.sale.Offered)), big.NewInt(total))
		r.Share = amountOfRat(share, l.tokPrec)
	} else {
		r.Share = fixed(0, l.tokPrec)
	}
	r.Formula = "allocation = min(your commitment ÷ total committed × tokens offered, your limit); what the capped leave is shared again pro rata; rounded down to the token's unit; cost = allocation × price rounded up; the rest of the commitment returns"
	if c.Has("tokens") {
		r.Allocated, r.Cost, r.Returned = fixed(c.Int("tokens"), l.tokPrec), fixed(c.Int("cost"), l.comPrec), fixed(c.Int("returned"), l.comPrec)
	}
	v.Mine = r
	return v, nil
}

// amountOfRat prints a rational number of units as an amount with 8 more
// decimals than the unit, rounded down.
func amountOfRat(r *big.Rat, prec int32) string {
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(8), nil)))
	q := new(big.Int).Quo(scaled.Num(), scaled.Denom())
	return amountOfBig(q, prec+8)
}

func amountOfBig(u *big.Int, prec int32) string {
	if u.IsInt64() {
		return fixed(u.Int64(), prec)
	}
	return u.String()
}

// LaunchFooter is the launchpad's summary (launchpad_footer).
type LaunchFooter struct {
	Projects     int   `json:"projects"`
	Participants int64 `json:"participants" doc:"commitments made in all sales"`
	Ended        int   `json:"ended"`
}

// Footer sums the sales up.
func (s *Service) Footer(ctx context.Context) (LaunchFooter, error) {
	all, err := s.LaunchList(ctx, LangEN)
	if err != nil {
		return LaunchFooter{}, err
	}
	out := LaunchFooter{Projects: len(all)}
	for _, v := range all {
		out.Participants += v.Participants
		if v.Phase == PhaseEnded {
			out.Ended++
		}
	}
	return out, nil
}
