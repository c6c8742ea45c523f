// Package sumsub is the Sumsub adapter of the verification provider port
// (kyc.Provider), speaking Sumsub's REST API (https://docs.sumsub.com):
// every request signed with the app token's secret key, applicants created
// per user (externalUserId is our user id) at a level, access tokens for
// the WebSDK, the review status and the recognised identity read back; and
// its webhooks, whose X-Payload-Digest is checked over the raw body
// (Webhooks).
package sumsub

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"tenger/internal/kyc"
)

// DefaultBaseURL is Sumsub's API (the sandbox and production share it; the
// app token decides which one answers).
const DefaultBaseURL = "https://api.sumsub.com"

// Request headers of Sumsub's app-token authentication.
const (
	HeaderAppToken = "X-App-Token"
	HeaderTS       = "X-App-Access-Ts"
	HeaderSig      = "X-App-Access-Sig"
)

// Config is an app token and where to use it.
type Config struct {
	// BaseURL is DefaultBaseURL unless set (tests point it at a recorder).
	BaseURL string
	// AppToken and SecretKey are the app token pair made in Sumsub's
	// dashboard (Dev space → App tokens).
	AppToken  string
	SecretKey string
	// HTTPClient defaults to one with a 15 s timeout.
	HTTPClient *http.Client
	Now        func() time.Time
}

// Client is the Sumsub adapter.
type Client struct {
	cfg  Config
	base *url.URL
}

var _ kyc.Provider = (*Client)(nil)

// New checks the configuration and builds the adapter.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.AppToken) == "" || strings.TrimSpace(cfg.SecretKey) == "" {
		return nil, errors.New("sumsub: the app token and its secret key are required")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	base, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("sumsub: base URL %q is not an absolute URL", cfg.BaseURL)
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 15 * time.Second}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Client{cfg: cfg, base: base}, nil
}

// Name names the adapter.
func (c *Client) Name() string { return "sumsub" }

// SignRequest is the X-App-Access-Sig of a request: the lowercase hex HMAC-SHA256,
// keyed by the secret key, of the timestamp (X-App-Access-Ts, Unix
// seconds), the upper-case method, the path with its query, and the body
// bytes, concatenated.
func SignRequest(secretKey, ts, method, pathWithQuery string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secretKey))
	mac.Write([]byte(ts))
	mac.Write([]byte(strings.ToUpper(method)))
	mac.Write([]byte(pathWithQuery))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// APIError is an answer of Sumsub's other than 2xx.
type APIError struct {
	Status        int    `json:"-"`
	Description   string `json:"description"`
	Code          int    `json:"code"`
	CorrelationID string `json:"correlationId"`
	ErrorCode     int    `json:"errorCode"`
	ErrorName     string `json:"errorName"`
}

func (e *APIError) Error() string {
	return fmt.Sprintf("sumsub: HTTP %d: %s (errorCode %d %s, correlationId %s)", e.Status, e.Description, e.ErrorCode,
		e.ErrorName, e.CorrelationID)
}

// maxAnswer bounds what is read of an answer (an applicant with its
// documents' data is a few kilobytes).
const maxAnswer = 1 << 20

// do sends a signed request: body (nil for none) as JSON, the answer into
// out (nil to drop it).
func (c *Client) do(ctx context.Context, method, pathWithQuery string, body, out any) error {
	var b []byte
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			return err
		}
	}
	u, err := url.Parse(c.base.String() + pathWithQuery)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(b))
	if err != nil {
		return err
	}
	ts := strconv.FormatInt(c.cfg.Now().Unix(), 10)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set(HeaderAppToken, c.cfg.AppToken)
	req.Header.Set(HeaderTS, ts)
	// The signed URI is the one sent, path and query as they travel.
	req.Header.Set(HeaderSig, SignRequest(c.cfg.SecretKey, ts, method, u.RequestURI(), b))
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("sumsub: %s %s: %w", method, u.Path, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("sumsub: %s %s: %w", method, u.Path, err)
	}
	if resp.StatusCode/100 != 2 {
		e := &APIError{Status: resp.StatusCode}
		if json.Unmarshal(answer, e) != nil || e.Description == "" {
			e.Description = strings.TrimSpace(string(answer[:min(len(answer), 200)]))
		}
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("sumsub: %s %s: unreadable answer: %w", method, u.Path, err)
	}
	return nil
}

// reviewResult is Sumsub's reviewResult object.
type reviewResult struct {
	ModerationComment string   `json:"moderationComment"`
	ClientComment     string   `json:"clientComment"`
	ReviewAnswer      string   `json:"reviewAnswer"`
	RejectLabels      []string `json:"rejectLabels"`
	ReviewRejectType  string   `json:"reviewRejectType"`
	ButtonIDs         []string `json:"buttonIds"`
}

// review is an applicant's review (the status call's answer, and the
// review object of an applicant).
type review struct {
	ReviewID     string        `json:"reviewId"`
	AttemptID    string        `json:"attemptId"`
	AttemptCnt   int           `json:"attemptCnt"`
	LevelName    string        `json:"levelName"`
	CreateDate   string        `json:"createDate"`
	ReviewDate   string        `json:"reviewDate"`
	ReviewResult *reviewResult `json:"reviewResult"`
	ReviewStatus string        `json:"reviewStatus"`
}

// info is the applicant data Sumsub recognised (info) or was given (fixedInfo).
type info struct {
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	DOB       string `json:"dob"`
	Country   string `json:"country"`
}

// applicant is Sumsub's applicant object, the fields this adapter reads.
type applicant struct {
	ID             string `json:"id"`
	CreatedAt      string `json:"createdAt"`
	ExternalUserID string `json:"externalUserId"`
	LevelName      string `json:"levelName"`
	Review         review `json:"review"`
	Info           *info  `json:"info"`
	FixedInfo      *info  `json:"fixedInfo"`
}

func (a applicant) provider() kyc.ProviderApplicant {
	lvl := a.Review.LevelName
	if lvl == "" {
		lvl = a.LevelName
	}
	return kyc.ProviderApplicant{ID: a.ID, UserID: a.ExternalUserID, ProviderLevel: lvl, ReviewStatus: reviewStatus(a.Review.ReviewStatus),
		CreatedMs: ParseTime(a.CreatedAt)}
}

// reviewStatus folds Sumsub's intermediate statuses into pending.
func reviewStatus(s string) string {
	switch s {
	case "prechecked", "queued":
		return kyc.ReviewPending
	}
	return s
}

// CreateApplicant creates the user's applicant at a level
// (POST /resources/applicants?levelName=). Sumsub keeps one applicant per
// externalUserId and refuses a second with 409; the existing one is then
// read (GET /resources/applicants/-;externalUserId=/one).
func (c *Client) CreateApplicant(ctx context.Context, uid, providerLevel string) (kyc.ProviderApplicant, error) {
	var a applicant
	err := c.do(ctx, http.MethodPost, "/resources/applicants?levelName="+queryEscape(providerLevel),
		map[string]string{"externalUserId": uid, "type": "individual"}, &a)
	var ae *APIError
	if errors.As(err, &ae) && ae.Status == http.StatusConflict {
		err = c.do(ctx, http.MethodGet, "/resources/applicants/-;externalUserId="+url.PathEscape(uid)+"/one", nil, &a)
	}
	if err != nil {
		return kyc.ProviderApplicant{}, err
	}
	if a.ID == "" {
		return kyc.ProviderApplicant{}, errors.New("sumsub: the applicant answer has no id")
	}
	return a.provider(), nil
}

// MoveToLevel moves an applicant to another level
// (POST /resources/applicants/{applicantId}/moveToLevel?name=).
func (c *Client) MoveToLevel(ctx context.Context, applicantID, providerLevel string) error {
	return c.do(ctx, http.MethodPost, "/resources/applicants/"+url.PathEscape(applicantID)+"/moveToLevel?name="+
		queryEscape(providerLevel), nil, nil)
}

// AccessToken makes a WebSDK access token for the user at a level
// (POST /resources/accessTokens/sdk with userId, levelName, ttlInSecs).
func (c *Client) AccessToken(ctx context.Context, uid, providerLevel string, ttl time.Duration) (kyc.AccessToken, error) {
	var out struct {
		Token  string `json:"token"`
		UserID string `json:"userId"`
	}
	err := c.do(ctx, http.MethodPost, "/resources/accessTokens/sdk", map[string]any{"userId": uid, "levelName": providerLevel,
		"ttlInSecs": int64(ttl / time.Second)}, &out)
	if err != nil {
		return kyc.AccessToken{}, err
	}
	if out.Token == "" {
		return kyc.AccessToken{}, errors.New("sumsub: the access token answer has no token")
	}
	return kyc.AccessToken{Token: out.Token, UserID: out.UserID}, nil
}

// queryEscape escapes a query value as Sumsub asks for level names:
// reserved characters percent-encoded, a space as %20 (not "+", which
// would be signed as one thing and read as another).
func queryEscape(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }

// notFound maps Sumsub's 404 to the port's ErrApplicantNotFound.
func notFound(err error) error {
	var ae *APIError
	if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
		return fmt.Errorf("%w: %v", kyc.ErrApplicantNotFound, err)
	}
	return err
}

// ApplicantStatus reads the review (GET /resources/applicants/{applicantId}/status).
func (c *Client) ApplicantStatus(ctx context.Context, applicantID string) (kyc.ProviderReview, error) {
	var r review
	if err := c.do(ctx, http.MethodGet, "/resources/applicants/"+url.PathEscape(applicantID)+"/status", nil, &r); err != nil {
		return kyc.ProviderReview{}, notFound(err)
	}
	out := kyc.ProviderReview{ReviewID: r.ReviewID, AttemptID: r.AttemptID, ProviderLevel: r.LevelName,
		ReviewStatus: reviewStatus(r.ReviewStatus), CreatedMs: ParseTime(r.CreateDate), ReviewedMs: ParseTime(r.ReviewDate)}
	if rr := r.ReviewResult; rr != nil && r.ReviewStatus == kyc.ReviewCompleted {
		out.Answer, out.RejectType, out.RejectLabels = rr.ReviewAnswer, rr.ReviewRejectType, rr.RejectLabels
		out.Reason, out.ClientComment = rr.ModerationComment, rr.ClientComment
	}
	return out, nil
}

// ApplicantIdentity reads the person Sumsub recognised from the documents
// (GET /resources/applicants/{applicantId}/one: info, else fixedInfo).
func (c *Client) ApplicantIdentity(ctx context.Context, applicantID string) (kyc.Identity, error) {
	var a applicant
	if err := c.do(ctx, http.MethodGet, "/resources/applicants/"+url.PathEscape(applicantID)+"/one", nil, &a); err != nil {
		return kyc.Identity{}, notFound(err)
	}
	var id kyc.Identity
	for _, in := range []*info{a.Info, a.FixedInfo} {
		if in == nil {
			continue
		}
		if id.FirstName == "" && id.LastName == "" {
			id.FirstName, id.LastName = in.FirstName, in.LastName
		}
		if id.Country == "" {
			id.Country = in.Country
		}
		if id.DOB == "" {
			id.DOB = in.DOB
		}
	}
	return id, nil
}

// Time layouts Sumsub writes: createdAt "2019-04-17 06:41:18", review
// dates "2020-06-24 05:05:14+0000", webhooks' createdAtMs
// "2021-05-14 16:00:25.032"; all UTC.
var timeLayouts = []string{"2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05.999999999-0700", "2006-01-02 15:04:05-0700",
	"2006-01-02 15:04:05", time.RFC3339Nano}

// ParseTime reads a Sumsub time as Unix ms (0 when empty or unreadable).
// A number is taken as Unix ms already.
func ParseTime(s string) int64 {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
		return n
	}
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UnixMilli()
		}
	}
	return 0
}

// FormatTime writes Unix ms as a webhook's createdAtMs.
func FormatTime(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000") }
