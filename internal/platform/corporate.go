package platform

import (
	"context"
	"errors"

	"tenger/internal/apperr"
	"tenger/internal/corporate"
	"tenger/internal/httpapi"
	"tenger/internal/upload"
)

// Corporate is corporate verification on this deployment's store and
// accounts, its step 4 attachments checked by the upload service
// (corporateAttachments). It keeps no state of its own, so building it
// again is cheap and safe.
func (d *Deps) Corporate() *corporate.Service {
	return corporate.New(corporate.Options{Store: d.Store, Accounts: d.Auth(), Attachments: d.corporateAttachments(),
		Now: d.Now, Log: d.Log.With().Str("service", "corporate").Logger()})
}

// corporateRouter is the corporate verification calls, in the profile
// area (ProfileArea), so tenger serve and the profile function serve them
// alike.
func (d *Deps) corporateRouter(sessions httpapi.SessionResolver) *httpapi.Router {
	return httpapi.NewCorporateRouter(d.Corporate(), d.APIOptions("profile", sessions))
}

// corporateArea are the corporate verification routers of the profile
// area; with Config.Dev also the dev reviewer (/dev/corporate/review),
// which decides as `tenger corporate approve|reject` does while the
// server runs.
func (d *Deps) corporateArea(sessions httpapi.SessionResolver) []*httpapi.Router {
	out := []*httpapi.Router{d.corporateRouter(sessions)}
	if d.Config.Dev {
		out = append(out, httpapi.NewDevCorporateRouter(d.Corporate(), d.APIOptions("dev-corporate", sessions)))
	}
	return out
}

// corporateAttachments checks step 4's upload ids with the upload
// service; nil where the deployment stores no uploads (an AWS function
// without its bucket), and then files are refused with
// CodeCorpUploadsUnavailable rather than attached unchecked.
func (d *Deps) corporateAttachments() corporate.Attachments {
	up := d.Uploads()
	if up == nil {
		return nil
	}
	return corporateUploads{up}
}

// corporateUploads is the upload service as corporate verification's
// Attachments.
type corporateUploads struct{ up *upload.Service }

// corporatePurposes are the uploads step 4 takes: corporate documents
// (imageType=2, what the web app sends), and identity documents
// (imageType=1), which a representative's ID may have been uploaded as.
var corporatePurposes = []upload.Purpose{upload.PurposeCorporateDocument, upload.PurposeIdentityDocument}

// CheckOwned is corporate.Attachments: every id must be uid's upload of
// a document. The upload service answers "file not found" alike for
// another user's id and for none, so the user learns nothing of others'
// uploads; the answer here names which of the ids it was.
func (c corporateUploads) CheckOwned(ctx context.Context, uid string, ids ...string) error {
	for _, id := range ids {
		if _, err := c.up.Owned(ctx, uid, id, corporatePurposes...); err != nil {
			if errors.Is(err, apperr.New(apperr.CodeUploadNotFound)) {
				return apperr.New(apperr.CodeCorpUploadNotFound, id)
			}
			return err
		}
	}
	return nil
}
