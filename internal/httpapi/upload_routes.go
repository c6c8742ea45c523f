package httpapi

import (
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/upload"
)

// Upload routes (spec §7: /common/upload_img (multipart file),
// /common/upload_img_auth?imageType=2), served by the profile area: the
// files of identity and corporate verification and other image fields,
// and the owner's read of them. The checks are package upload's; these
// routes read the multipart body within bounds and answer in the
// catalogue's envelope.

// Paths of the upload routes.
const (
	PathUploadImg     = "/fe-ex-api/common/upload_img"
	PathUploadImgAuth = "/fe-ex-api/common/upload_img_auth"
	PathUploadFile    = "/fe-ex-api/common/upload_file"
)

// multipartOverhead is what a request body may hold beyond the file: the
// multipart boundaries and part headers, and small form fields sent
// before the file. Past MaxBytes+multipartOverhead the body is not read.
const multipartOverhead = 64 << 10

// UploadResp is the answer of an accepted upload.
type UploadResp struct {
	upload.Meta
	ImageType int64  `json:"imageType" doc:"the imageType the file was sent with (0 for upload_img)"`
	URL       string `json:"url" doc:"where the owner reads it back (GET, signed in)"`
}

func uploadResp(m upload.Meta) UploadResp {
	return UploadResp{Meta: m, ImageType: m.Purpose.ImageType(), URL: PathUploadFile + "?id=" + m.ID}
}

// fileCSP is the Content-Security-Policy of a served upload: it may run
// nothing and load nothing. Images are sandboxed as well; PDFs are not,
// because Chromium's built-in viewer does not render into a sandboxed
// document (and an accepted PDF has no scripts to run anyway).
func fileCSP(kind upload.Kind) string {
	if kind == upload.KindPDF {
		return "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'self'"
	}
	return "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox"
}

// NewUploadRouter serves the upload calls.
func NewUploadRouter(svc *upload.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "profile"
	}
	r := NewRouter(opts)
	mb := (svc.MaxBytes() + 1<<20 - 1) >> 20
	errorsDoc := fmt.Sprintf("errors: 16100 no file part, 16101 larger than %d MB (HTTP 413), 16102 type not accepted, "+
		"16103 more than %d megapixels or %d pixels a side, 16104 damaged or incomplete, 10004 more than %d uploads in the hour "+
		"(data.retryAfter), 10002 not signed in", mb, upload.DefaultLimits.MaxPixels/1_000_000, upload.DefaultLimits.MaxSide,
		upload.UploadsPerHour)
	answerDoc := `{"code":"0","data":{"id","purpose","imageType","contentType","size","sha256","originalSize","originalSha256",` +
		`"width","height","createdAt","url"}}; `
	fileDoc := fmt.Sprintf(`multipart/form-data with a part named "file" of at most %d MB; its type is read from its bytes `+
		`(the file name and the part's Content-Type are ignored); images are re-encoded, which drops EXIF and other metadata`, mb)

	accept := func(c *Call, purpose upload.Purpose) error {
		part, err := filePart(c, svc)
		if err != nil {
			return err
		}
		m, err := svc.Accept(c.Ctx, c.Principal.UserID, purpose, bodyLimitReader{r: part, svc: svc})
		if err != nil {
			return err
		}
		r.finish(c, uploadResp(m), nil)
		return nil
	}
	r.handlePrivateRaw(http.MethodPost, PathUploadImg, RouteOpts{Tag: "uploads",
		Summary: "Upload an image (JPEG or PNG) for the signed-in user, e.g. a support question's screenshot"},
		fileDoc, answerDoc+errorsDoc,
		func(c *Call) error { return accept(c, upload.PurposeImage) })
	r.handlePrivateRaw(http.MethodPost, PathUploadImgAuth, RouteOpts{Tag: "uploads",
		Summary: "Upload a document for identity or corporate verification (JPEG, PNG; PDF for documents)"},
		"?imageType= "+upload.ImageTypesDoc+"; body: "+fileDoc+"; a PDF must have no scripts, actions or attached files",
		answerDoc+errorsDoc+", 16105 PDF with scripts, actions, attached files or parts that cannot be checked, 410 imageType missing or unknown",
		func(c *Call) error {
			n, err := strconv.ParseInt(c.Req.URL.Query().Get("imageType"), 10, 64)
			purpose, ok := upload.PurposeOfImageType(n)
			if err != nil || !ok {
				return apperr.Param("imageType: 1, 2 or 3")
			}
			return accept(c, purpose)
		})
	r.handlePrivateRaw(http.MethodGet, PathUploadFile, RouteOpts{Tag: "uploads",
		Summary: "Read one of the signed-in user's uploads (authenticate with the exchange-token header, or the cookie with X-XSRF-TOKEN)"},
		"?id=<upload id>",
		"the file: Content-Type from its metadata, Content-Disposition inline, X-Content-Type-Options nosniff, "+
			"Cache-Control private, no-store; in AWS a 302 to a presigned S3 URL that works for a minute; "+
			"errors: 16106 (HTTP 404) for an id that is not the caller's upload, 410 id missing, 10002 not signed in",
		func(c *Call) error {
			id := c.Req.URL.Query().Get("id")
			if id == "" {
				return apperr.Param("id: required")
			}
			d, err := svc.Download(c.Ctx, c.Principal.UserID, id)
			if err != nil {
				return err
			}
			serveDownload(c, d)
			return nil
		})
	return r
}

// serveDownload answers an upload's bytes: a redirect to its presigned URL
// (AWS) or the bytes themselves with headers that keep the browser from
// doing anything but showing them.
func serveDownload(c *Call, d upload.Download) {
	h := c.W.Header()
	h.Set("Cache-Control", "private, no-store")
	if d.URL != "" {
		http.Redirect(c.W, c.Req, d.URL, http.StatusFound)
		logRaw(c, http.StatusFound)
		return
	}
	defer d.Body.Close()
	h.Set("Content-Type", d.Meta.ContentType)
	h.Set("Content-Length", strconv.FormatInt(d.Meta.Size, 10))
	h.Set("Content-Disposition", d.Meta.Disposition())
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", fileCSP(d.Meta.Kind()))
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	c.W.WriteHeader(http.StatusOK)
	if c.Req.Method != http.MethodHead {
		if _, err := io.Copy(c.W, d.Body); err != nil {
			c.Log.Warn().Err(err).Str("upload", d.Meta.ID).Msg("upload: serving the file stopped")
		}
	}
	logRaw(c, http.StatusOK)
}

// filePart finds the multipart part named "file", reading the body
// within MaxBytes+multipartOverhead: a body declared larger is refused
// before any of it is read, and the parts before the file are discarded.
func filePart(c *Call, svc *upload.Service) (*multipart.Part, error) {
	limit := svc.MaxBytes() + multipartOverhead
	if c.Req.ContentLength > limit {
		return nil, svc.TooLarge()
	}
	c.Req.Body = http.MaxBytesReader(c.W, c.Req.Body, limit)
	mr, err := c.Req.MultipartReader()
	if err != nil {
		return nil, apperr.New(apperr.CodeUploadFileMissing).WithCause(err)
	}
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, apperr.New(apperr.CodeUploadFileMissing)
		}
		if err != nil {
			return nil, bodyError(err, svc)
		}
		if p.FormName() == "file" {
			return p, nil
		}
		if _, err := io.Copy(io.Discard, p); err != nil {
			return nil, bodyError(err, svc)
		}
	}
}

// bodyError is the answer to a failure to read the request body: too
// large past the limit, otherwise a malformed or cut-off multipart body.
func bodyError(err error, svc *upload.Service) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return svc.TooLarge()
	}
	return apperr.Param("malformed multipart body").WithCause(err)
}

// bodyLimitReader reports the body limit as the upload's too-large error,
// so Accept returns it rather than a read failure.
type bodyLimitReader struct {
	r   io.Reader
	svc *upload.Service
}

func (b bodyLimitReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	var mbe *http.MaxBytesError
	if err != nil && errors.As(err, &mbe) {
		return n, b.svc.TooLarge()
	}
	return n, err
}

// handlePrivateRaw registers a signed-in route that reads its own body
// (multipart) or writes its own answer (a file), documented in OpenAPI
// by the given descriptions. The session is checked as Handle's routes
// check it, anti-forgery header included, before fn reads anything; fn
// writes its success itself and returns an error to answer with the
// catalogue's envelope instead.
func (r *Router) handlePrivateRaw(method, path string, opts RouteOpts, rawReq, rawResp string, fn func(c *Call) error) {
	opts.Auth = Private
	if opts.Tag == "" {
		opts.Tag = r.opts.Service
	}
	r.routes = append(r.routes, RouteDoc{Method: method, Path: path, Summary: opts.Summary, Tag: opts.Tag, Auth: opts.Auth,
		RawRequest: rawReq, RawResponse: rawResp})
	r.mux.HandleFunc(path, func(w http.ResponseWriter, hr *http.Request) {
		c := r.newCall(w, hr, opts)
		if hr.Method != method && !(method == http.MethodGet && hr.Method == http.MethodHead) {
			r.finish(c, nil, apperr.New(apperr.CodeMethod))
			return
		}
		if err := r.authenticate(c, Private); err != nil {
			r.finish(c, nil, err)
			return
		}
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					c.Log.Error().Str("panic", fmt.Sprint(p)).Str("stack", string(debug.Stack())).Msg("handler panic")
					err = apperr.New(apperr.CodeInternal)
				}
			}()
			err = fn(c)
		}()
		if err != nil {
			r.finish(c, nil, err)
		}
	})
}

// logRaw writes the access log line of an answer that is not an
// envelope, as finish does for envelopes.
func logRaw(c *Call, status int) {
	c.status = status
	c.Log.Info().Str("method", c.Req.Method).Str("path", c.Req.URL.Path).Int("status", status).
		Str("ip", c.IP).Dur("dur", time.Since(c.start)).Msg("request")
}
