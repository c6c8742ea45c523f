package httpapi

import (
	"net/http"

	"tenger/internal/apperr"
	"tenger/internal/kyc/kycsim"
)

// Dev KYC routes (mounted only with --dev): the verification simulator's
// page standing in for the provider's web flow, and its reviewer, whose
// answer reaches KYCWebhookPath as the provider's signed webhook.

// DevKYCReviewReq is a reviewer's answer to a user's documents.
type DevKYCReviewReq struct {
	UserID            FlexString `json:"userId" v:"required"`
	Answer            string     `json:"answer" v:"required" doc:"GREEN or RED"`
	RejectLabels      []string   `json:"rejectLabels" doc:"RED: Sumsub's labels, e.g. UNSATISFACTORY_PHOTOS (default that one)"`
	ReviewRejectType  string     `json:"reviewRejectType" doc:"RED: RETRY (default; the user may send documents again) or FINAL"`
	ModerationComment string     `json:"moderationComment" doc:"RED: the reason shown to the user"`
	ClientComment     string     `json:"clientComment" doc:"a comment for operators only"`
}

// Validate bounds the fields.
func (r *DevKYCReviewReq) Validate() error {
	if len(r.UserID) > 64 || len(r.Answer) > 8 || len(r.ReviewRejectType) > 8 || len(r.RejectLabels) > 20 ||
		len(r.ModerationComment) > 500 || len(r.ClientComment) > 500 {
		return apperr.Param("field too long")
	}
	return nil
}

// NewDevKYCRouter serves the verification simulator.
func NewDevKYCRouter(sim *kycsim.Sim, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "dev-kyc"
	}
	r := NewRouter(opts)
	dev := func(s string) RouteOpts { return RouteOpts{Summary: s + " (--dev only)", Auth: Public, Tag: "dev"} }
	r.HandleRaw(http.MethodGet, kycsim.PagePath, dev("Verification simulator: the provider's web flow for the user of an access token (get_access_token's simulatorUrl)"),
		"?accessToken=<token>", "HTML page", sim.ServePage)
	r.HandleRaw(http.MethodPost, "/dev/kyc/submit", dev("Verification simulator: the user's data and document image go for review (applicantPending is sent)"),
		"form accessToken, firstName, lastName, dob (YYYY-MM-DD), country (ISO alpha-3), idDocNumber, uploadId", "303 to the page", sim.ServeSubmit)
	r.HandleRaw(http.MethodPost, "/dev/kyc/review/form", dev("Verification simulator: the page's reviewer buttons"),
		"form accessToken, answer=GREEN|RED_RETRY|RED_FINAL, rejectLabels (comma separated), moderationComment", "303 to the page", sim.ServeReviewForm)
	Handle(r, "/dev/kyc/review", dev("Verification simulator: review the user's documents; the applicantReviewed webhook is sent, signed as Sumsub signs it, to "+KYCWebhookPath+" and its answer returned"),
		func(c *Call, req *DevKYCReviewReq) (kycsim.Delivery, error) {
			return sim.Review(c.Ctx, kycsim.ReviewInput{UserID: req.UserID.String(), Answer: req.Answer, RejectLabels: req.RejectLabels,
				RejectType: req.ReviewRejectType, ModerationComment: req.ModerationComment, ClientComment: req.ClientComment})
		})
	return r
}
