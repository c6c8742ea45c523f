package httpapi

import (
	"fmt"

	"tenger/internal/apperr"
	"tenger/internal/competition"
)

// The futures trading competition (spec §7, base /fe-co-api; §6: joining
// needs KYC, a mobile number, enough funds and a futures account). Served
// beside the futures routes; the paths under /common are public.

// CompetitionReq names a competition.
type CompetitionReq struct {
	CompetitionID FlexString `json:"competitionId" v:"required" doc:"the competition's id (get_current_competition)"`
}

// CompetitionTopReq is competition_top.
type CompetitionTopReq struct {
	CompetitionReq
	Limit FlexInt `json:"limit" doc:"ranks, 1-100, default 10"`
}

// Validate checks the limit.
func (r *CompetitionTopReq) Validate() error {
	if r.Limit.Set && (r.Limit.V < 1 || r.Limit.V > competition.MaxTop) {
		return apperr.Param(fmt.Sprintf("limit: 1 to %d", competition.MaxTop))
	}
	return nil
}

// CompetitionRankReq is competition_rank_web.
type CompetitionRankReq struct {
	CompetitionReq
	Page     FlexInt `json:"page" doc:"1-based, default 1"`
	PageSize FlexInt `json:"pageSize" doc:"1-100, default 20"`
}

// Validate checks the paging.
func (r *CompetitionRankReq) Validate() error {
	return checkPaging(r.Page, r.PageSize, competition.MaxPageSize)
}

// NewCompetitionRouter serves the competition's routes.
func NewCompetitionRouter(svc *competition.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "futures"
	}
	r := NewRouter(opts)
	pub := func(s string) RouteOpts { return RouteOpts{Summary: s, Tag: "competition"} }
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private, Tag: "competition"} }
	const co = "/fe-co-api"

	Handle(r, co+"/common/competition_detail", pub("A competition: names, times, prize table, rules, state, participants, and whether the caller joined"),
		func(c *Call, req *CompetitionReq) (competition.Detail, error) {
			return svc.Detail(c.Ctx, req.CompetitionID.String(), c.Principal.UserID, c.Lang)
		})
	Handle(r, co+"/common/competition_top", pub("A competition's best ranks: masked nickname, ROI and profit"),
		func(c *Call, req *CompetitionTopReq) ([]competition.RankRow, error) {
			return svc.Top(c.Ctx, req.CompetitionID.String(), int(req.Limit.V))
		})
	Handle(r, co+"/common/competition_rank_web", pub("A page of a competition's ranking"),
		func(c *Call, req *CompetitionRankReq) (competition.RankPage, error) {
			return svc.Ranks(c.Ctx, req.CompetitionID.String(), int(req.Page.V), int(req.PageSize.V))
		})
	Handle(r, co+"/common/get_current_competition", pub("The running competition, else the next to start, else the last ended; null when there is none"),
		func(c *Call, _ *Empty) (*competition.Detail, error) {
			cur, ok, err := svc.Current(c.Ctx)
			if err != nil || !ok {
				return nil, err
			}
			d, err := svc.Detail(c.Ctx, cur.ID, c.Principal.UserID, c.Lang)
			if err != nil {
				return nil, err
			}
			return &d, nil
		})
	Handle(r, co+"/get_user_condition", priv("Each rule of joining a competition, met or not: KYC, mobile number, futures margin balance, futures account; and whether the caller joined"),
		func(c *Call, req *CompetitionReq) (competition.Condition, error) {
			return svc.Condition(c.Ctx, req.CompetitionID.String(), c.Principal.UserID)
		})
	Handle(r, co+"/join_competition", priv("Join a running competition (every rule met); the futures margin balance now is the initial equity; joining again changes nothing"),
		func(c *Call, req *CompetitionReq) (competition.UserRank, error) {
			return svc.Join(c.Ctx, req.CompetitionID.String(), c.Principal.UserID)
		})
	Handle(r, co+"/user_rank", priv("The caller's rank, ROI, profit, equity, initial equity and prize in a competition"),
		func(c *Call, req *CompetitionReq) (competition.UserRank, error) {
			return svc.UserRank(c.Ctx, req.CompetitionID.String(), c.Principal.UserID)
		})
	return r
}
