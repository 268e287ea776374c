// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// The parts of the official Uniswap and WETH9 contracts our launchpads call.
interface IWETH9 {
    function deposit() external payable;
    function transfer(address to, uint256 value) external returns (bool);
}

interface IUniswapV2Factory {
    function createPair(address tokenA, address tokenB) external returns (address pair);
}

interface IUniswapV2Pair {
    function mint(address to) external returns (uint256 liquidity);
}
