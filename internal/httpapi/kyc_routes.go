package httpapi

import (
	"errors"
	"io"
	"net/http"

	"tenger/internal/apperr"
	"tenger/internal/kyc"
)

// Identity verification (spec §7: /sumsub/v2/get_level_list,
// /sumsub/get_access_token, sumsub/change_level_and_create_info) and the
// provider's webhook. Served by the profile area.

// KYCWebhookPath is where the verification provider (Sumsub, or the
// simulator of --dev) posts its webhooks.
const KYCWebhookPath = "/fe-ex-api/sumsub/webhook"

// maxKYCWebhookBody bounds a webhook's body: Sumsub's are well under 4 KB
// (they carry no personal data).
const maxKYCWebhookBody = 64 << 10

// KYCLevelReq names a level, and optionally the caller's applicant.
type KYCLevelReq struct {
	LevelName   string `json:"levelName" doc:"a level of get_level_list (or the provider's name of it); empty: the level being applied for, else the first one not held"`
	ApplicantID string `json:"applicantId" doc:"optional; when given it must be the caller's own applicant"`
}

// Validate bounds the fields.
func (r *KYCLevelReq) Validate() error {
	if len(r.LevelName) > 64 {
		return apperr.Param("levelName: too long")
	}
	if len(r.ApplicantID) > 128 {
		return apperr.Param("applicantId: too long")
	}
	return nil
}

// NewKYCRouter serves the verification calls and the provider's webhook.
func NewKYCRouter(svc *kyc.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "profile"
	}
	r := NewRouter(opts)
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private, Tag: "kyc"} }
	Handle(r, "/fe-ex-api/sumsub/v2/get_level_list", priv("Verification levels with their 24 h withdrawal limits, and the user's level and status"),
		func(c *Call, _ *Empty) (kyc.LevelList, error) { return svc.Levels(c.Ctx, c.Principal.UserID) })
	Handle(r, "/fe-ex-api/sumsub/get_access_token", priv("An access token for the provider's flow at a level (Sumsub's WebSDK; with --dev, simulatorUrl is the page to open); creates the applicant when the user has none"),
		func(c *Call, req *KYCLevelReq) (kyc.TokenView, error) {
			return svc.AccessToken(c.Ctx, c.Principal.UserID, req.LevelName, req.ApplicantID)
		})
	Handle(r, "/fe-ex-api/sumsub/change_level_and_create_info", priv("Start verification at a level or move to another (idempotent; refused while a review runs or after a FINAL rejection); answers get_level_list"),
		func(c *Call, req *KYCLevelReq) (kyc.LevelList, error) {
			return svc.Start(c.Ctx, c.Principal.UserID, req.LevelName, req.ApplicantID)
		})
	r.HandleRaw(http.MethodPost, KYCWebhookPath, RouteOpts{Summary: "The verification provider's webhook (Sumsub's applicantPending, applicantReviewed, applicantReset ...): X-Payload-Digest over the raw body, by X-Payload-Digest-Alg, with the webhook's secret key; applied once", Auth: Public, Tag: "kyc"},
		`raw JSON body as Sumsub sends it {"applicantId","externalUserId","levelName","type","reviewStatus","createdAtMs","correlationId","reviewResult":{"reviewAnswer","rejectLabels","reviewRejectType","moderationComment"}}; headers X-Payload-Digest, X-Payload-Digest-Alg (HMAC_SHA1_HEX, HMAC_SHA256_HEX, HMAC_SHA512_HEX)`,
		`{"code":"0","data":{"applied","duplicate","ignored","kycStatus"}}; a wrong or missing digest 16005 (HTTP 401), an unknown algorithm 16006 (401), a malformed payload 16007 (400), no applicant of ours 16008 (404): nothing written`,
		func(w http.ResponseWriter, hr *http.Request) {
			body, err := io.ReadAll(http.MaxBytesReader(w, hr.Body, maxKYCWebhookBody))
			if err != nil {
				var mbe *http.MaxBytesError
				if errors.As(err, &mbe) {
					WriteError(w, hr, apperr.New(apperr.CodeBodyTooLarge, maxKYCWebhookBody))
					return
				}
				WriteError(w, hr, apperr.Param("unreadable body"))
				return
			}
			res, err := svc.Webhook(hr.Context(), hr.Header, body)
			if err != nil {
				ae := apperr.As(err)
				ev := opts.Log.Warn()
				if ae.Entry.Code == apperr.CodeInternal || ae.Entry.Code == apperr.CodeKYCUnavailable {
					ev = opts.Log.Error()
				}
				ev.Err(ae.Cause).Str("code", ae.Entry.Code).Str("request_id", requestID(hr)).Msg("kyc webhook refused")
				WriteError(w, hr, ae)
				return
			}
			WriteOK(w, hr, res)
		})
	return r
}
