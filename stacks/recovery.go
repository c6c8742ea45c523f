package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsbackup"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsevents"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// Context keys of disaster recovery.
const (
	// ContextBackupCopyVault is the ARN of a backup vault in another
	// region, best in another account, that every recovery point is copied
	// to (the vault's policy must let this account copy into it).
	ContextBackupCopyVault = "backupCopyVaultArn"
	// ContextDRRegion is the region the secrets are replicated to, so the
	// keys that open the table's sealed secrets and sign engine commands
	// survive the loss of the stage's region.
	ContextDRRegion = "drRegion"
)

// RecoveryStack backs up what cannot be rebuilt from the repository: the
// table (whose point-in-time recovery covers 35 days in place), the
// engine's file system (its journal and snapshots) and the users' uploads
// (identity and corporate documents, which the law requires kept).
type RecoveryStack struct {
	awscdk.Stack
	Vault awsbackup.BackupVault
	Plan  awsbackup.BackupPlan
}

// Recovery point lifetimes.
const (
	backupKeepDays = 35
	copyKeepDays   = 90
	// vaultLockDays: nobody, the account's administrators included, can
	// delete a recovery point younger than this (vault lock, governance).
	vaultLockDays = 7
)

// NewRecoveryStack creates a vault in the stage's region, locked so that
// recovery points cannot be deleted before vaultLockDays, and a daily plan
// (03:00 UTC, kept backupKeepDays) of the table and the engine's file
// system, each recovery point copied to the vault of ContextBackupCopyVault
// (kept copyKeepDays) when one is given.
func NewRecoveryStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config, data *DataStack, engine *EngineStack) *RecoveryStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &RecoveryStack{Stack: st}
	s.Vault = awsbackup.NewBackupVault(st, jsii.String("Vault"), &awsbackup.BackupVaultProps{
		BackupVaultName: jsii.String(cfg.prefix()),
		LockConfiguration: &awsbackup.LockConfiguration{
			MinRetention: awscdk.Duration_Days(jsii.Number(vaultLockDays)),
		},
		RemovalPolicy: awscdk.RemovalPolicy_RETAIN,
	})
	rule := &awsbackup.BackupPlanRuleProps{
		RuleName:           jsii.String("daily"),
		ScheduleExpression: awsevents.Schedule_Cron(&awsevents.CronOptions{Hour: jsii.String("3"), Minute: jsii.String("0")}),
		DeleteAfter:        awscdk.Duration_Days(jsii.Number(backupKeepDays)),
	}
	if cfg.BackupCopyVault != "" {
		rule.CopyActions = &[]*awsbackup.BackupPlanCopyActionProps{{
			DestinationBackupVault: awsbackup.BackupVault_FromBackupVaultArn(st, jsii.String("CopyVault"), jsii.String(cfg.BackupCopyVault)),
			DeleteAfter:            awscdk.Duration_Days(jsii.Number(copyKeepDays)),
		}}
	}
	s.Plan = awsbackup.NewBackupPlan(st, jsii.String("Plan"), &awsbackup.BackupPlanProps{
		BackupPlanName:  jsii.String(cfg.prefix()),
		BackupVault:     s.Vault,
		BackupPlanRules: &[]awsbackup.BackupPlanRule{awsbackup.NewBackupPlanRule(rule)},
	})
	sel := s.Plan.AddSelection(jsii.String("TableAndJournal"), &awsbackup.BackupSelectionOptions{
		Resources: &[]awsbackup.BackupResource{
			awsbackup.BackupResource_FromDynamoDbTable(data.Table),
			awsbackup.BackupResource_FromEfsFileSystem(engine.Data),
		},
		AllowRestores: jsii.Bool(true),
	})
	suppress(sel, nagReasons{"AwsSolutions-IAM4": "AWSBackupServiceRolePolicyForBackup and ...ForRestores are the " +
		"policies AWS Backup documents for its service role; they act only on the resources of the selection."})
	s.addUploads(data)
	return s
}

// addUploads backs up the uploads bucket (versioned, as AWS Backup needs)
// with a role of its own: S3's backup and restore policies instead of the
// general ones, and use of the bucket's key granted in the role's own
// policy (the key's policy lets the account's IAM policies decide), so the
// data stack's key policy never names this stack's role.
func (s *RecoveryStack) addUploads(data *DataStack) {
	role := awsiam.NewRole(s.Stack, jsii.String("UploadsBackupRole"), &awsiam.RoleProps{
		AssumedBy: awsiam.NewServicePrincipal(jsii.String("backup.amazonaws.com"), nil),
		ManagedPolicies: &[]awsiam.IManagedPolicy{
			awsiam.ManagedPolicy_FromAwsManagedPolicyName(jsii.String("AWSBackupServiceRolePolicyForS3Backup")),
			awsiam.ManagedPolicy_FromAwsManagedPolicyName(jsii.String("AWSBackupServiceRolePolicyForS3Restore")),
		},
	})
	role.AddToPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Actions:   jsii.Strings("kms:Decrypt", "kms:GenerateDataKey", "kms:DescribeKey"),
		Resources: jsii.Strings(*data.UploadsKey.KeyArn()),
	}))
	suppress(role, nagReasons{"AwsSolutions-IAM4": "AWSBackupServiceRolePolicyForS3Backup and ...ForS3Restore are the " +
		"policies AWS Backup documents for backing up and restoring S3 buckets."})
	s.Plan.AddSelection(jsii.String("Uploads"), &awsbackup.BackupSelectionOptions{
		Resources:                  &[]awsbackup.BackupResource{awsbackup.BackupResource_FromArn(data.Uploads.BucketArn())},
		Role:                       role,
		DisableDefaultBackupPolicy: jsii.Bool(true),
	})
}
