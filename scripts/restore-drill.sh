#!/usr/bin/env bash
# Restore drill: proves, on a deployed stage, that the table and the engine's
# journal can be brought back, without touching what runs.
#
#   scripts/restore-drill.sh <stage>          # e.g. dev, prod
#
# 1. The table is restored to its state of five minutes ago (point-in-time
#    recovery) into a new table, Tenger-<stage>-drill-<time>; its item count
#    is compared with the live table's (the drill table is then deleted).
# 2. The engine's file system's latest recovery point in the stage's vault
#    is restored into a new file system; the job's result is printed (the
#    new file system is then deleted).
# Needs the AWS CLI v2 with the stage's credentials, and jq. It prints each
# step, the figures, and how long each restore took: keep them with the
# date in the operations log.
set -euo pipefail

stage=${1:?usage: scripts/restore-drill.sh <stage>}
prefix="tenger-${stage}"
stamp=$(date -u +%Y%m%d%H%M)

table=$(aws cloudformation describe-stacks --stack-name "Tenger-${stage}-Data" \
  --query "Stacks[0].Outputs[?OutputKey=='TableName'].OutputValue" --output text)
echo "table: ${table}"

# 1. The table, five minutes ago, into a drill table.
drill="Tenger-${stage}-drill-${stamp}"
at=$(date -u -d '5 minutes ago' +%Y-%m-%dT%H:%M:%SZ)
start=$(date +%s)
aws dynamodb restore-table-to-point-in-time --source-table-name "${table}" \
  --target-table-name "${drill}" --restore-date-time "${at}" --billing-mode-override PAY_PER_REQUEST >/dev/null
aws dynamodb wait table-exists --table-name "${drill}"
until [ "$(aws dynamodb describe-table --table-name "${drill}" --query Table.TableStatus --output text)" = ACTIVE ]; do sleep 15; done
echo "table restored to ${at} in $(( $(date +%s) - start )) s"
count() { aws dynamodb scan --table-name "$1" --select COUNT --query Count --output text; }
live=$(count "${table}"); restored=$(count "${drill}")
echo "items: live ${live}, restored ${restored} (the live table has moved on for five minutes)"
aws dynamodb delete-table --table-name "${drill}" >/dev/null
echo "drill table deleted"

# 2. The engine's journal: the latest recovery point of its file system.
vault="${prefix}"
point=$(aws backup list-recovery-points-by-backup-vault --backup-vault-name "${vault}" \
  --by-resource-type EFS --query 'reverse(sort_by(RecoveryPoints,&CreationDate))[0].RecoveryPointArn' --output text)
if [ -z "${point}" ] || [ "${point}" = None ]; then
  echo "no EFS recovery point in vault ${vault} yet (the plan runs daily at 03:00 UTC)" >&2
  exit 1
fi
role=$(aws backup list-backup-selections --backup-plan-id "$(aws backup list-backup-plans \
  --query "BackupPlansList[?BackupPlanName=='${prefix}'].BackupPlanId | [0]" --output text)" \
  --query 'BackupSelectionsList[0].IamRoleArn' --output text)
meta=$(aws backup get-recovery-point-restore-metadata --backup-vault-name "${vault}" --recovery-point-arn "${point}" \
  --query RestoreMetadata --output json | jq '. + {newFileSystem: "true", Encrypted: "true", PerformanceMode: "generalPurpose"}')
start=$(date +%s)
job=$(aws backup start-restore-job --recovery-point-arn "${point}" --iam-role-arn "${role}" --metadata "${meta}" \
  --query RestoreJobId --output text)
until status=$(aws backup describe-restore-job --restore-job-id "${job}" --query Status --output text) && \
  [ "${status}" = COMPLETED ] || [ "${status}" = FAILED ] || [ "${status}" = ABORTED ]; do sleep 30; done
echo "journal restore ${status} in $(( $(date +%s) - start )) s from ${point}"
fs=$(aws backup describe-restore-job --restore-job-id "${job}" --query CreatedResourceArn --output text)
if [ "${status}" = COMPLETED ] && [ -n "${fs}" ] && [ "${fs}" != None ]; then
  aws efs delete-file-system --file-system-id "${fs##*/}"
  echo "drill file system deleted"
fi
[ "${status}" = COMPLETED ]
