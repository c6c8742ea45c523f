package platform

import (
	"os"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"tenger/internal/httpapi"
	"tenger/internal/upload"
	"tenger/internal/upload/s3store"
)

// Environment of the uploads' S3 adapter (the profile function's).
const (
	// EnvUploadsBucket names the bucket uploads are kept in; without it a
	// function serves no upload routes.
	EnvUploadsBucket = "UPLOADS_BUCKET"
	// EnvUploadsKMSKey, when set, is the KMS key (id or ARN) objects are
	// encrypted with (SSE-KMS); otherwise SSE-S3.
	EnvUploadsKMSKey = "UPLOADS_KMS_KEY_ID"
	// EnvS3Endpoint points the S3 client at another endpoint, path-style
	// (LocalStack, tests).
	EnvS3Endpoint = "S3_ENDPOINT"
)

// uploadsPrefix is the key prefix of uploads in their bucket, so the
// bucket's lifecycle rules and grants can name them.
const uploadsPrefix = "uploads/"

// uploadState holds the upload service of a Deps, built once.
type uploadState struct {
	once sync.Once
	svc  *upload.Service
	// maxBytes is the largest file accepted (0: upload.DefaultMaxBytes);
	// NewAWS sets Lambda's.
	maxBytes int64
}

// Uploads is the upload service (built once per Deps) on the UploadFiles
// adapter: files under the data directory in `tenger serve`, the
// $UPLOADS_BUCKET bucket in AWS. It is nil when the deployment has no
// upload storage (an AWS function without the bucket), and then the
// upload routes are not served. The verification code reads uploads
// through it (Owned, OpenForReview).
func (d *Deps) Uploads() *upload.Service {
	d.uploads.once.Do(func() {
		if d.UploadFiles == nil {
			return
		}
		d.uploads.svc = upload.New(upload.Options{Store: d.Store, Files: d.UploadFiles, Now: d.Now,
			Log: d.Log.With().Str("service", "upload").Logger(), MaxBytes: d.uploads.maxBytes})
	})
	return d.uploads.svc
}

// uploadRouters are the upload routes of the profile area, when the
// deployment stores uploads.
func (d *Deps) uploadRouters(sessions httpapi.SessionResolver) []*httpapi.Router {
	svc := d.Uploads()
	if svc == nil {
		d.Log.Warn().Msg("no upload storage (" + EnvUploadsBucket + " unset); the upload calls are not served")
		return nil
	}
	return []*httpapi.Router{httpapi.NewUploadRouter(svc, d.APIOptions("profile", sessions))}
}

// uploadFilesFromEnv sets UploadFiles to the S3 adapter of the bucket
// $UPLOADS_BUCKET names, when it is set, with the file limit of a Lambda
// function's request event (upload.LambdaMaxBytes).
func (d *Deps) uploadFilesFromEnv(cfg aws.Config) {
	bucket := os.Getenv(EnvUploadsBucket)
	if bucket == "" {
		return
	}
	c := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if ep := os.Getenv(EnvS3Endpoint); ep != "" {
			o.BaseEndpoint, o.UsePathStyle = aws.String(ep), true
		}
	})
	d.UploadFiles = s3store.New(c, bucket, s3store.Options{Prefix: uploadsPrefix, KMSKeyID: os.Getenv(EnvUploadsKMSKey)})
	d.uploads.maxBytes = upload.LambdaMaxBytes
}
