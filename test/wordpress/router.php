<?php
/**
 * Router of `php -S` for the test site: Debian's WordPress picks its configuration file by
 * $_SERVER['WORDPRESS_CONFIG'] (/etc/wordpress/config-<name>.php), which the built-in server does not take
 * from the environment; so the router sets it and runs the requested script itself. Static files are served
 * by the server from Debian's tree (the document root).
 */

$_SERVER['WORDPRESS_CONFIG'] = getenv( 'WORDPRESS_CONFIG' );
$spam_check_root             = '/usr/share/wordpress';
$spam_check_path             = rawurldecode( (string) parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH ) );
$spam_check_file             = realpath( $spam_check_root . $spam_check_path );

if ( false !== $spam_check_file && is_dir( $spam_check_file ) ) {
	$spam_check_file = realpath( $spam_check_file . '/index.php' );
}
if ( false !== $spam_check_file && ! str_ends_with( $spam_check_file, '.php' ) ) {
	return false;
}
if ( false === $spam_check_file || ! str_starts_with( $spam_check_file, $spam_check_root . '/' ) ) {
	$spam_check_file = $spam_check_root . '/index.php';
}
$_SERVER['SCRIPT_FILENAME'] = $spam_check_file;
$_SERVER['SCRIPT_NAME']     = substr( $spam_check_file, strlen( $spam_check_root ) );
$_SERVER['PHP_SELF']        = $_SERVER['SCRIPT_NAME'];
chdir( dirname( $spam_check_file ) );
require $spam_check_file;
