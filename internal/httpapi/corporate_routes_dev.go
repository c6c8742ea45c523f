package httpapi

import (
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/corporate"
)

// Dev corporate routes (mounted only with --dev): the operator's review of
// corporate verification for a running `tenger serve --dev`. Operators
// decide with `tenger corporate approve|reject` on a stopped server's data
// (the store admits one process); browser journeys need the same decision
// while the server runs, so this route calls the very review functions the
// command calls (corporate.Service.Approve and Reject).

// PathDevCorpReview is the dev reviewer's route.
const PathDevCorpReview = "/dev/corporate/review"

// DevCorpReviewer is the reviewer's name the dev route writes into the
// application's history.
const DevCorpReviewer = "dev reviewer"

// DevCorpReviewReq is a reviewer's decision on a user's pending
// application.
type DevCorpReviewReq struct {
	UserID  FlexString `json:"userId" v:"required" doc:"the applicant's user id"`
	Answer  string     `json:"answer" v:"required" doc:"approve or reject"`
	Reasons []string   `json:"reasons" doc:"reject: the reasons the user is shown (1 to 10, at most 500 characters each)"`
}

// Validate bounds the fields and checks the answer; the reasons' rules are
// the review's own (corporate.Service.Reject).
func (r *DevCorpReviewReq) Validate() error {
	if len(r.UserID) > 64 || len(r.Reasons) > 50 {
		return apperr.Param("field too long")
	}
	switch strings.ToLower(strings.TrimSpace(r.Answer)) {
	case "approve", "reject":
		return nil
	}
	return apperr.Param("answer: approve or reject")
}

// NewDevCorporateRouter serves the dev reviewer of corporate verification.
func NewDevCorporateRouter(svc *corporate.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "dev-corporate"
	}
	r := NewRouter(opts)
	dev := func(s string) RouteOpts { return RouteOpts{Summary: s + " (--dev only)", Auth: Public, Tag: "dev"} }
	Handle(r, PathDevCorpReview, dev("Corporate verification: approve a pending application (the user becomes an enterprise account) or reject it with reasons, as `tenger corporate approve|reject` does"),
		func(c *Call, req *DevCorpReviewReq) (corporate.Application, error) {
			uid := strings.TrimSpace(req.UserID.String())
			if strings.EqualFold(strings.TrimSpace(req.Answer), "approve") {
				return svc.Approve(c.Ctx, uid, DevCorpReviewer)
			}
			return svc.Reject(c.Ctx, uid, DevCorpReviewer, req.Reasons)
		})
	return r
}
