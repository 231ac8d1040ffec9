#!/bin/sh
echo "The Prisma schema engine binary is not available on this machine." >&2
echo "Apply migrations with 'npm run db:migrate'; author one with 'npm run db:migration -- NAME'." >&2
exit 1
