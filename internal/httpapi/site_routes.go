package httpapi

import (
	"tenger/internal/analytics"
	"tenger/internal/apperr"
)

// PageViewReq is the page view the web app reports on every route change.
type PageViewReq struct {
	Path     string `json:"path" v:"required" doc:"the app path, e.g. /auth/login"`
	Title    string `json:"title"`
	Referrer string `json:"referrer"`
}

// Validate checks the path and bounds the free-text fields.
func (r *PageViewReq) Validate() error {
	if !analytics.ValidPath(r.Path) {
		return apperr.Param("path: must be an app path starting with /")
	}
	if len(r.Title) > 256 || len(r.Referrer) > 1024 {
		return apperr.Param("title or referrer too long")
	}
	return nil
}

// NewSiteRouter serves the web app's housekeeping calls (page views).
func NewSiteRouter(rec *analytics.Recorder, opts Options) *Router {
	r := NewRouter(opts)
	Handle(r, "/fe-ex-api/common/page_view", RouteOpts{Summary: "Record a page view (sent on every route change)"},
		func(c *Call, req *PageViewReq) (Empty, error) {
			err := rec.Record(c.Ctx, analytics.PageView{
				Path: req.Path, Title: req.Title, Referrer: req.Referrer,
				UserID: c.Principal.UserID, Device: c.Device, Lang: c.Lang, At: c.Now,
			})
			return Empty{}, err
		})
	return r
}
