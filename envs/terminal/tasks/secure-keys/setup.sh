set -e
mkdir -p deploy/keys/old deploy/public
echo k1 > deploy/keys/id_main
echo k2 > deploy/keys/old/id_2019
echo pub > deploy/public/id_main.pub
echo idx > deploy/public/index.txt
chmod 777 deploy/keys deploy/keys/old deploy/public
chmod 666 deploy/keys/id_main deploy/keys/old/id_2019
chmod 600 deploy/public/index.txt
chmod 666 deploy/public/id_main.pub
